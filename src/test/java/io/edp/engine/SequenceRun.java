package io.edp.engine;

import io.edp.engine.FlowFrames.Ingress;
import io.edp.engine.LockstepEngines.Outcome;
import io.edp.engine.ModelEvent.Advance;
import io.edp.engine.ModelEvent.ApplyFlowCache;
import io.edp.engine.ModelEvent.ApplyMtu;
import io.edp.engine.ModelEvent.ApplyRoutes;
import io.edp.engine.ModelEvent.ApplyRules;
import io.edp.engine.ModelEvent.ApplyTlbThreshold;
import io.edp.engine.ModelEvent.ClearConnections;
import io.edp.engine.ModelEvent.FlushFlowCaches;
import io.edp.engine.ModelEvent.MoveQueue;
import io.edp.engine.ModelEvent.Send;
import io.edp.engine.ModelEvent.SendFragment;
import io.edp.engine.ModelEvent.SwitchMode;
import io.edp.engine.ModelNetwork.Flow;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.ConnectionFilter;
import io.edp.engine.tlb.TlbConfig;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a sequence of {@link ModelEvent}s through {@link LockstepEngines} and checks every frame as it goes: the
 * engine under test must do exactly what the LEGACY reference does (same frames out of the same ports, byte for
 * byte, same drop reasons). Both modes share the IOChain, so a fault in it hides from that comparison; two
 * promises are therefore checked on each engine alone: a routed frame leaves with its route's VLAN (none on a
 * VM port, QinQ included), and under one firewall policy no later fragment passes once the firewall dropped its
 * datagram's first fragment. A failure names the engine, the frame and the events that led to it.
 */
final class SequenceRun implements AutoCloseable {

    private static final int LOGGED_EVENTS = 40;

    private final LockstepEngines engines;
    private final List<Flow> flows;
    private final List<String> log = new ArrayList<>();
    /** Per engine ([under test, reference]): datagrams whose first fragment the firewall dropped. */
    private final List<Set<String>> blockedDatagrams = List.of(new HashSet<>(), new HashSet<>());
    private int frames;
    /** Packet-log lines the engine under test wrote, each compared with the reference's. */
    private int loggedLines;
    /** Frames both engines dropped alike for exceeding their egress port's MTU. */
    private int overMtu;
    private long seconds;

    SequenceRun(EngineConfig config, List<Flow> flows) {
        this.engines = new LockstepEngines(config);
        this.flows = List.copyOf(flows);
    }

    LockstepEngines engines() {
        return engines;
    }

    /** Frames sent so far. */
    int frames() {
        return frames;
    }

    /** Packet-log lines compared so far. */
    int loggedLines() {
        return loggedLines;
    }

    /** Frames over an egress MTU so far. */
    int overMtu() {
        return overMtu;
    }

    void run(List<? extends ModelEvent> events) {
        for (ModelEvent e : events) {
            run(e);
        }
    }

    void run(ModelEvent event) {
        switch (event) {
            case Send s -> send(s);
            case SendFragment f -> send(f);
            case Advance a -> {
                log(a);
                seconds += a.seconds();
                List<List<String>> logged = engines.advance(Duration.ofSeconds(a.seconds()));
                loggedLines += logged.get(0).size();
                if (!logged.get(0).equals(logged.get(1))) {
                    fail(mode(0) + " logged differently from " + mode(1) + " as the clock moved:\n   " + mode(0)
                            + ": " + logged.get(0) + "\n   " + mode(1) + ": " + logged.get(1));
                }
            }
            case ApplyRules r -> {
                log(r);
                engines.apply(b -> b.rules(ModelNetwork.pick(ModelNetwork.RULES, r.rules())));
                blockedDatagrams.forEach(Set::clear);
            }
            case ApplyRoutes r -> {
                log(r);
                engines.apply(b -> b.routes(ModelNetwork.pick(ModelNetwork.ROUTES, r.routes())));
            }
            case ApplyFlowCache c -> {
                log(c);
                engines.apply(b -> b.flowCache(ModelNetwork.CACHE_SETTINGS.get(c.setting()).config()));
            }
            case ApplyMtu m -> {
                log(m);
                engines.apply(b -> b.ports(b.build().ports().stream()
                        .map(p -> p.id() == m.port() ? p.withMtu(m.mtu()) : p).toList()));
            }
            case ApplyTlbThreshold t -> {
                log(t);
                engines.apply(b -> b.tlb(TlbConfig.DEFAULTS.withThreshold(t.percent() / 100.0)));
            }
            case SwitchMode m -> {
                log(m);
                engines.switchMode(m.mode());
            }
            case MoveQueue m -> {
                log(m);
                engines.moveQueue(0, m.queue(), m.worker());
            }
            case FlushFlowCaches f -> {
                log(f);
                engines.flushFlowCaches();
            }
            case ClearConnections c -> {
                log(c);
                int[] cleared = engines.clearConnections(c.flow() < 0 ? ConnectionFilter.ALL : filter(flow(c.flow())));
                if (cleared[0] != cleared[1]) {
                    fail(mode(0) + " cleared " + cleared[0] + " connections, " + mode(1) + " " + cleared[1]);
                }
            }
        }
    }

    /** The connections of {@code flow}'s protocol on its source port (ICMP has no ports: all of ICMP). */
    private static ConnectionFilter filter(Flow flow) {
        return switch (flow.protocol()) {
            case UDP -> new ConnectionFilter(null, flow.sourcePort(), null, -1, FlowKey.PROTO_UDP, 0);
            case TCP -> new ConnectionFilter(null, flow.sourcePort(), null, -1, FlowKey.PROTO_TCP, 0);
            case ICMP -> new ConnectionFilter(null, -1, null, -1,
                    flow.ipv6() ? FlowKey.PROTO_ICMPV6 : FlowKey.PROTO_ICMP, 0);
        };
    }

    /** Sends a whole datagram; returns what each engine made of it, [under test, reference], both checked. */
    Outcome[] send(Send s) {
        log(s);
        Flow flow = flow(s.flow());
        Ingress frame = FlowFrames.packet(flow, s.reply(), s.kind(), s.tagging(), s.ttl(), frames++, s.payload());
        Outcome[] outcomes = engines.send(frame);
        check(outcomes);
        return outcomes;
    }

    /** Sends a fragment; returns what each engine made of it, [under test, reference], both checked. */
    Outcome[] send(SendFragment f) {
        log(f);
        Flow flow = flow(f.flow());
        Ingress frame = FlowFrames.fragment(flow, f.reply(), f.offsetUnits(), f.more(), f.ipId(), f.tagging(),
                frames++);
        Outcome[] outcomes = engines.send(frame);
        check(outcomes);
        String datagram = flow + (f.reply() ? " reply" : "") + " id " + f.ipId();
        for (int i = 0; i < outcomes.length; i++) {
            Set<String> blocked = blockedDatagrams.get(i);
            Map<DropReason, Long> drops = outcomes[i].drops();
            if (f.offsetUnits() == 0) {
                if (drops.containsKey(DropReason.FIREWALL_DROP) || drops.containsKey(DropReason.FIREWALL_REJECT)) {
                    blocked.add(datagram);
                } else {
                    blocked.remove(datagram);
                }
            } else if (blocked.contains(datagram) && passed(outcomes[i])) {
                fail(mode(i) + " let a later fragment through after its firewall dropped the first fragment of "
                        + "datagram " + datagram + ": " + outcomes[i]);
            }
        }
        return outcomes;
    }

    Flow flow(int index) {
        return flows.get(index % flows.size());
    }

    /** Forwarded, and not dropped (a REJECT's answer is not the frame passing). */
    static boolean passed(Outcome o) {
        return o.forwarded() && o.drops().isEmpty();
    }

    private void check(Outcome[] outcomes) {
        loggedLines += outcomes[0].logged().size();
        overMtu += outcomes[0].drops().getOrDefault(DropReason.MTU_EXCEEDED, 0L).intValue();
        if (!outcomes[0].equals(outcomes[1])) {
            fail(mode(0) + " differs from " + mode(1) + ":\n   " + mode(0) + ": " + outcomes[0] + "\n   " + mode(1)
                    + ": " + outcomes[1]);
        }
        for (int i = 0; i < outcomes.length; i++) {
            if (passed(outcomes[i])) {
                checkRoutedVlans(i, outcomes[i]);
            }
        }
    }

    /**
     * A forwarded frame from the router (source MAC) carries exactly its route's VLAN, or none; the router's own
     * packets (from a gateway address: echo replies, time exceeded) go back tagged as their cause came.
     */
    private void checkRoutedVlans(int engine, Outcome o) {
        for (Map.Entry<Integer, List<String>> port : o.transmitted().entrySet()) {
            for (String hex : port.getValue()) {
                byte[] frame = HexFormat.of().parseHex(hex);
                if (mac(frame, 6) != ModelNetwork.ROUTER_MAC) {
                    continue;
                }
                List<Integer> tags = new ArrayList<>();
                int at = 12;
                for (; at + 4 <= frame.length && isTag(u16(frame, at)); at += 4) {
                    tags.add(u16(frame, at + 2) & 0xFFF);
                }
                if (fromGateway(frame, at)) {
                    continue;
                }
                int vlan = ModelNetwork.routedVlan(mac(frame, 0), port.getKey());
                List<Integer> expected = vlan == 0 ? List.of() : List.of(vlan);
                if (!tags.equals(expected)) {
                    fail(mode(engine) + " routed a frame out of port " + port.getKey() + " with VLAN tags " + tags
                            + " where its route gives " + expected + ": " + hex);
                }
            }
        }
    }

    /** Whether the IP packet after the EtherType at {@code at} comes from one of the router's own addresses. */
    private static boolean fromGateway(byte[] frame, int at) {
        ByteBuffer b = ByteBuffer.wrap(frame);
        return switch (u16(frame, at)) {
            case FlowKey.ETHERTYPE_IPV4 -> ModelNetwork.isGatewayAddress((long) b.getInt(at + 2 + 12) << 32, 0);
            case FlowKey.ETHERTYPE_IPV6 -> ModelNetwork.isGatewayAddress(b.getLong(at + 2 + 8), b.getLong(at + 2 + 16));
            default -> false;
        };
    }

    private static boolean isTag(int etherType) {
        return etherType == FlowKey.ETHERTYPE_VLAN || etherType == FlowKey.ETHERTYPE_QINQ;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | b[at + 1] & 0xFF;
    }

    private static long mac(byte[] b, int at) {
        long mac = 0;
        for (int i = 0; i < 6; i++) {
            mac = mac << 8 | b[at + i] & 0xFF;
        }
        return mac;
    }

    private String mode(int engine) {
        return engine == 0 ? engines.modeUnderTest() + " (under test)" : Mode.LEGACY + " (reference)";
    }

    private void log(ModelEvent e) {
        log.add(e.describe(flows));
    }

    /** Fails at the last logged event, listing the events that led to it. */
    void fail(String what) {
        StringBuilder message = new StringBuilder("at event ").append(log.size()).append(" (clock +").append(seconds)
                .append(" s): ").append(what)
                .append("\nevents:");
        for (int i = Math.max(0, log.size() - LOGGED_EVENTS); i < log.size(); i++) {
            message.append(i == log.size() - 1 ? "\n → " : "\n   ").append(i + 1).append(". ").append(log.get(i));
        }
        throw new AssertionError(message.toString());
    }

    @Override
    public String toString() {
        return "SequenceRun[" + log.size() + " events, " + frames + " frames]";
    }

    @Override
    public void close() {
        engines.close();
    }
}
