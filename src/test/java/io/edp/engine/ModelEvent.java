package io.edp.engine;

import io.edp.engine.ModelNetwork.Flow;
import io.edp.engine.ModelNetwork.Protocol;
import io.edp.engine.ModelNetwork.Tagging;
import java.util.List;

/**
 * One step of a fast-equals-slow sequence. Values are small (indices into a sequence's flows and the
 * {@link ModelNetwork} pools) so that jqwik shrinks a failing sequence to few, simple events;
 * {@link #describe} names them for a reader.
 */
sealed interface ModelEvent {

    String describe(List<Flow> flows);

    /**
     * A whole datagram of flow {@code flow} (modulo the sequence's flows), from its initiator or as a reply, with
     * {@code payload} bytes after the transport header.
     */
    record Send(int flow, boolean reply, int kind, Tagging tagging, int ttl, int payload) implements ModelEvent {

        /** A datagram of the small payload most frames carry. */
        Send(int flow, boolean reply, int kind, Tagging tagging, int ttl) {
            this(flow, reply, kind, tagging, ttl, FlowFrames.PAYLOAD);
        }

        @Override
        public String describe(List<Flow> flows) {
            Flow f = flows.get(flow % flows.size());
            return f + (reply ? " reply" : "")
                    + (f.protocol() == Protocol.TCP ? " " + ModelNetwork.tcpFlagNames(kind) : "")
                    + (tagging == Tagging.LINK ? "" : " " + tagging) + (ttl == 64 ? "" : " ttl " + ttl)
                    + (payload == FlowFrames.PAYLOAD ? "" : " " + payload + " bytes");
        }
    }

    /** Fragment {@code offsetUnits} (0: the first) of datagram {@code ipId} of a flow. */
    record SendFragment(int flow, boolean reply, int offsetUnits, boolean more, int ipId, Tagging tagging)
            implements ModelEvent {

        @Override
        public String describe(List<Flow> flows) {
            Flow f = flows.get(flow % flows.size());
            return f + (reply ? " reply" : "") + " fragment id " + ipId + " offset " + offsetUnits * 8
                    + (more ? " MF" : "") + (tagging == Tagging.LINK ? "" : " " + tagging);
        }
    }

    record Advance(int seconds) implements ModelEvent {

        @Override
        public String describe(List<Flow> flows) {
            return "clock +" + seconds + " s";
        }
    }

    /** Firewall rules, in this order, picked from {@link ModelNetwork#RULES} by index. */
    record ApplyRules(List<Integer> rules) implements ModelEvent {

        @Override
        public String describe(List<Flow> flows) {
            return "apply rules " + ModelNetwork.pick(ModelNetwork.RULES, rules);
        }
    }

    /** Routes picked from {@link ModelNetwork#ROUTES} by index. */
    record ApplyRoutes(List<Integer> routes) implements ModelEvent {

        @Override
        public String describe(List<Flow> flows) {
            return "apply routes " + ModelNetwork.pick(ModelNetwork.ROUTES, routes);
        }
    }

    /** A flow-cache setting from {@link ModelNetwork#CACHE_SETTINGS}. */
    record ApplyFlowCache(int setting) implements ModelEvent {

        @Override
        public String describe(List<Flow> flows) {
            return "apply flow cache " + ModelNetwork.CACHE_SETTINGS.get(setting);
        }
    }

    /** The MTU of port {@code port}, changed live. */
    record ApplyMtu(int port, int mtu) implements ModelEvent {

        @Override
        public String describe(List<Flow> flows) {
            return "apply MTU " + mtu + " on port " + port;
        }
    }

    /** A Thread Load Balancer threshold: a change that touches neither forwarding nor the firewall. */
    record ApplyTlbThreshold(int percent) implements ModelEvent {

        @Override
        public String describe(List<Flow> flows) {
            return "apply TLB threshold " + percent + " %";
        }
    }

    /** The engine under test only: LEGACY, EDP_STANDARD or EDP_DEDICATED. */
    record SwitchMode(Mode mode) implements ModelEvent {

        @Override
        public String describe(List<Flow> flows) {
            return "switch the engine under test to " + mode;
        }
    }

    /** RX queue {@code queue} of uplink 0 to worker {@code worker}. */
    record MoveQueue(int queue, int worker) implements ModelEvent {

        @Override
        public String describe(List<Flow> flows) {
            return "move queue 0/" + queue + " to worker " + worker;
        }
    }

    record FlushFlowCaches() implements ModelEvent {

        @Override
        public String describe(List<Flow> flows) {
            return "flush the flow caches";
        }
    }

    /**
     * Connections cleared in both engines (conntrack -D): with {@code flow} &lt; 0 all of them, else those of that
     * flow's protocol on its source port (every one of the protocol for ICMP, which has no ports).
     */
    record ClearConnections(int flow) implements ModelEvent {

        @Override
        public String describe(List<Flow> flows) {
            return flow < 0 ? "clear every connection" : "clear the connections of " + flows.get(flow % flows.size());
        }
    }
}
