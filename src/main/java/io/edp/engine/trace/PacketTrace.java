package io.edp.engine.trace;

import io.edp.engine.packet.DropReason;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.slowpath.Route;

/**
 * What the engine does with one frame, stage by stage, as {@link io.edp.engine.Engine#trace} computed it against
 * the running tables without side effects. A stage the packet did not reach is null.
 *
 * @param port       the ingress port
 * @param rxQueue    the RX queue the NIC steers the frame to
 * @param worker     the worker that owns that queue, whose flow cache and fragment table were read
 * @param generation the engine generation the tables belong to
 * @param flowKey    the parsed flow key; null when the frame does not parse
 * @param switching  the switching decision
 * @param firewall   the distributed firewall's decision and the connection found (IP packets)
 * @param routing    the route and next hop (frames to the router MAC)
 * @param flowCache  what the owning worker's flow cache holds for the key
 * @param verdict    the outcome: the frame as it leaves and its port, or why it is dropped
 */
public record PacketTrace(int port, int rxQueue, int worker, int generation, String flowKey, Switching switching,
        Firewall firewall, Routing routing, FlowCacheLookup flowCache, Verdict verdict) {

    /** How the switch treated the frame's destination MAC. */
    public enum SwitchDecision {
        /** The router's MAC: the frame is routed. */
        TO_ROUTER,
        /** A MAC the switching table holds on the frame's segment. */
        KNOWN_MAC,
        /** An unknown MAC from a VM port: out of the default uplink. */
        DEFAULT_UPLINK,
        /** An unknown MAC from an uplink: dropped. */
        UNKNOWN_MAC,
        /** A broadcast or multicast MAC: flooded to the segment's other ports (or, for the router, answered). */
        FLOOD
    }

    /**
     * @param segment the VLAN the frame is switched in: its outer tag on an uplink, the vNIC's VLAN on a VM port
     * @param outPort the port switching picked, -1 when routed or none
     */
    public record Switching(int segment, String destinationMac, SwitchDecision decision, int outPort) {
    }

    /** The state of the connection a packet belongs to, NEW when there is none (the rules decide). */
    public enum ConnectionState {
        NEW, SYN_SENT, ESTABLISHED, FIN_WAIT, CLOSED, ACTIVE;

        /** The state of a {@link ConnectionTable} state number. */
        public static ConnectionState of(int state) {
            return switch (state) {
                case ConnectionTable.SYN_SENT -> SYN_SENT;
                case ConnectionTable.ESTABLISHED -> ESTABLISHED;
                case ConnectionTable.FIN_WAIT -> FIN_WAIT;
                case ConnectionTable.CLOSED -> CLOSED;
                case ConnectionTable.ACTIVE -> ACTIVE;
                default -> NEW;
            };
        }
    }

    /**
     * @param connection   the live connection the packet belongs to (it passes as part of it), or NEW
     * @param laterFragment a later IP fragment: it takes its first fragment's decision, kept by the worker
     * @param ruleId       the rule that decided (the connection's, or the first match), 0 for none (allowed)
     * @param allowed      whether the packet passes the firewall
     */
    public record Firewall(ConnectionState connection, boolean laterFragment, int ruleId, boolean allowed) {
    }

    /**
     * @param route   the longest matching route, null when none matches
     * @param nextHop the MAC the frame is rewritten to
     */
    public record Routing(Route route, int outPort, String nextHop, int vlan) {
    }

    /** What the owning worker's flow cache holds for the key. */
    public enum CacheState {
        /** A current entry: the packet takes its action without the slow path. */
        HIT,
        /** No entry: the slow path decides. */
        MISS,
        /** An entry of an older generation, expired, or idle past its connection: the slow path decides again. */
        STALE,
        /** The packet always takes the slow path (TCP SYN, FIN or RST, QinQ, a slow-path-only port). */
        BYPASSED,
        /** The engine runs without a flow cache (LEGACY). */
        DISABLED
    }

    /**
     * @param entryGeneration the entry's generation (its low 16 bits), -1 without an entry
     * @param expiresInMillis milliseconds until the entry expires (negative: expired), 0 without an entry
     * @param cachedAction    the action a current entry gives, null otherwise
     * @param installs        whether the slow path's decision would be cached for the next packets
     */
    public record FlowCacheLookup(CacheState state, int entryGeneration, long expiresInMillis, String cachedAction,
            boolean installs) {
    }

    /**
     * Whether the frame leaves: by one port, by every port of its segment but its own (broadcast, multicast), or
     * not at all; or whether the router takes it (its ARP, neighbor discovery, echo: answered, rate limited).
     */
    public enum Outcome {
        FORWARDED, FLOODED, ANSWERED, DROPPED
    }

    /**
     * @param outPort     the port the frame leaves by, -1 when dropped, flooded or answered
     * @param frameHex    the frame as it leaves (rewritten), null when dropped
     * @param dropReason  why it is dropped, null when forwarded
     * @param ruleId      the firewall rule of the decision, 0 for none
     * @param action      the action taken, as the flow cache and the slow path print it
     * @param rejectReply a REJECT: a TCP RST or ICMP unreachable goes back out of the ingress port (rate limited)
     */
    public record Verdict(Outcome outcome, int outPort, String frameHex, DropReason dropReason, int ruleId,
            String action, boolean rejectReply) {
    }
}
