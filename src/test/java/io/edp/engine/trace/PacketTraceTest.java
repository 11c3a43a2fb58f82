package io.edp.engine.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.Mode;
import io.edp.engine.TestTopology;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.MacAddress;
import io.edp.engine.slowpath.PortRange;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.Verdict;
import io.edp.engine.time.ManualClock;
import io.edp.engine.trace.PacketTrace.CacheState;
import io.edp.engine.trace.PacketTrace.ConnectionState;
import io.edp.engine.trace.PacketTrace.Outcome;
import io.edp.engine.trace.PacketTrace.SwitchDecision;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A trace tells what the engine does: for thousands of random frames (switched, routed, firewalled, QinQ, TTL 1,
 * truncated, TCP handshakes and data that hit the flow cache, across clock moves and rule changes), the trace's
 * verdict, output port and bytes equal what the engine then really does with the same frame, and the flow-cache
 * state it reports is what the owning worker's lookup then finds; and a trace changes nothing.
 */
class PacketTraceTest {

    private static final int FRAMES = 4_000;
    private static final int PORTS = 3;
    private static final String ROUTER_MAC = EngineConfig.DEFAULT_ROUTER_MAC;
    private static final String[] MACS = {ROUTER_MAC, ROUTER_MAC, TestTopology.VM_A_MAC, "02:00:00:00:00:77",
            TestTopology.GATEWAY_MAC};
    private static final String[] IPV4 = {"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.128.0.1", "10.128.0.2",
            "10.128.3.5", "10.129.0.1", "10.200.0.1"};
    private static final String[] IPV6 = {"fd00::1", "fd00::2", "fd00::5", "fd01::1", "fd01::2", "fd02::1"};
    private static final int[] TCP_FLAGS = {FlowKey.TCP_SYN, FlowKey.TCP_SYN | FlowKey.TCP_ACK, FlowKey.TCP_ACK,
            FlowKey.TCP_ACK, FlowKey.TCP_ACK, FlowKey.TCP_FIN | FlowKey.TCP_ACK, FlowKey.TCP_RST};

    /** The test topology with {@code first} (if any) ahead of the rules every test has. */
    private static EngineConfig config(Mode mode, FirewallRule... first) {
        EngineConfig.Builder config = TestTopology.config(mode)
                .workers(0, 2)
                .route(new Route("fd01::/16", TestTopology.GATEWAY_MAC, 2, 20));
        for (FirewallRule rule : first) {
            config.rule(rule);
        }
        return config.rule(FirewallRule.of(1, "any", "10.128.3.0/24", 0, Verdict.DROP))
                .rule(new FirewallRule(2, "any", "any", 6, PortRange.ANY, PortRange.of(22), Set.of(),
                        Verdict.REJECT))
                .rule(FirewallRule.of(3, "fd00::5/128", "any", 0, Verdict.DROP))
                .rule(FirewallRule.of(4, "any", "any", 0, Verdict.ALLOW)).build();
    }

    private static Engine start(Mode mode, ManualClock clock) {
        Engine engine = Engine.startStepped(config(mode), NicDrivers.withLoopback(), clock);
        for (int port = 0; port < PORTS; port++) {
            TestTopology.nic(engine, port).captureTransmitted(8);
        }
        return engine;
    }

    /** A random frame and its ingress port, from small pools so that flows repeat and meet their state. */
    private record Ingress(int port, byte[] frame) {
    }

    private static Ingress randomFrame(Random random) {
        boolean ipv6 = random.nextInt(4) == 0;
        String[] addresses = ipv6 ? IPV6 : IPV4;
        int protocol = switch (random.nextInt(7)) {
            case 0, 1, 2 -> FlowKey.PROTO_TCP;
            case 3, 4 -> FlowKey.PROTO_UDP;
            case 5 -> ipv6 ? FlowKey.PROTO_ICMPV6 : FlowKey.PROTO_ICMP;
            default -> 47;
        };
        List<Integer> vlans = switch (random.nextInt(6)) {
            case 0 -> List.of();
            case 1 -> List.of(20);
            case 2 -> List.of(10, 100);
            default -> List.of(10);
        };
        int port = random.nextInt(PORTS);
        PacketFields fields = new PacketFields(MacAddress.parse("02:00:00:00:00:aa", "source"),
                MacAddress.parse(MACS[random.nextInt(MACS.length)], "destination"), vlans,
                InetAddress.ofLiteral(addresses[random.nextInt(addresses.length)]),
                InetAddress.ofLiteral(addresses[random.nextInt(addresses.length)]), protocol,
                1000 + random.nextInt(3), random.nextInt(4) == 0 ? 22 : 80,
                TCP_FLAGS[random.nextInt(TCP_FLAGS.length)], random.nextInt(10) == 0 ? 1 : 64,
                60 + random.nextInt(140));
        byte[] frame = fields.frame();
        if (random.nextInt(25) == 0) {
            frame = Arrays.copyOf(frame, random.nextInt(frame.length)); // the parser's drops
        }
        return new Ingress(port, frame);
    }

    /** Counts of what the differential met. */
    private record Met(Map<Outcome, Integer> outcomes, Map<CacheState, Integer> cacheStates) {
    }

    @Test
    void aTracesVerdictPortBytesAndCacheStateAreWhatTheEngineDoesWithTheFrame() {
        Met met = differential(Mode.EDP_STANDARD, FRAMES);
        assertThat(met.cacheStates()).as("every flow-cache state was met").containsKeys(CacheState.HIT,
                CacheState.MISS, CacheState.STALE, CacheState.BYPASSED);
        assertThat(met.outcomes().get(Outcome.DROPPED)).isGreaterThan(FRAMES / 10);
        assertThat(met.outcomes().get(Outcome.FORWARDED)).isGreaterThan(FRAMES / 5);
    }

    @Test
    void inLegacyModeTheTraceSaysTheCacheIsDisabledAndStillTellsWhatTheEngineDoes() {
        Met met = differential(Mode.LEGACY, FRAMES / 4);
        assertThat(met.cacheStates().keySet()).containsExactly(CacheState.DISABLED);
        assertThat(met.outcomes()).containsKeys(Outcome.FORWARDED, Outcome.DROPPED);
    }

    /**
     * Traces {@code frames} random frames through a stepped engine of {@code mode}, sending each after its trace,
     * and requires the engine to do what the trace said.
     */
    private static Met differential(Mode mode, int frames) {
        ManualClock clock = new ManualClock(0);
        Random random = new Random(14);
        Map<CacheState, Integer> cacheStates = new EnumMap<>(CacheState.class);
        Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
        List<Ingress> recent = new ArrayList<>();
        try (Engine engine = start(mode, clock)) {
            for (int i = 0; i < frames; i++) {
                if (random.nextInt(200) == 0) {
                    clock.advance(Duration.ofSeconds(random.nextInt(40))); // entries expire, connections idle out
                }
                if (random.nextInt(800) == 0) {
                    engine.apply(config(mode, FirewallRule.of(5, "10.0.0.2/32", "any", 0,
                            random.nextBoolean() ? Verdict.DROP : Verdict.ALLOW)));
                }
                // half the frames repeat a recent one: their flows meet the connections and entries they left
                Ingress in = random.nextBoolean() && !recent.isEmpty() ? recent.get(random.nextInt(recent.size()))
                        : randomFrame(random);
                if (recent.size() < 64) {
                    recent.add(in);
                } else {
                    recent.set(random.nextInt(recent.size()), in);
                }
                PacketTrace trace = engine.trace(in.port(), in.frame());
                EngineStats before = engine.stats();
                Map<DropReason, Long> dropsBefore = before.drops();
                assertThat(TestTopology.nic(engine, in.port())
                        .inject(MemorySegment.ofArray(in.frame()), 0, in.frame().length)).isTrue();
                assertThat(engine.step()).isEqualTo(1);
                String at = "frame " + i + " " + HexFormat.of().formatHex(in.frame()) + " on port " + in.port()
                        + ": " + trace;
                List<List<byte[]>> sent = sent(engine);
                PacketTrace.Verdict verdict = trace.verdict();
                outcomes.merge(verdict.outcome(), 1, Integer::sum);
                if (trace.flowCache() != null) {
                    cacheStates.merge(trace.flowCache().state(), 1, Integer::sum);
                    if (mode != Mode.LEGACY) {
                        assertThat(lookedUp(before.flowCache(), engine.stats().flowCache())).as(at)
                                .isEqualTo(trace.flowCache().state());
                    }
                }
                if (verdict.outcome() == Outcome.FORWARDED) {
                    for (int port = 0; port < PORTS; port++) {
                        assertThat(sent.get(port)).as(at).hasSize(port == verdict.outPort() ? 1 : 0);
                    }
                    assertThat(HexFormat.of().formatHex(sent.get(verdict.outPort()).getFirst())).as(at)
                            .isEqualTo(verdict.frameHex());
                    assertThat(engine.stats().drops()).as(at).isEqualTo(dropsBefore);
                } else {
                    for (int port = 0; port < PORTS; port++) {
                        // a REJECT's reply leaves by the ingress port, when the rate limit lets it
                        assertThat(sent.get(port)).as(at).hasSizeLessThanOrEqualTo(
                                verdict.rejectReply() && port == in.port() ? 1 : 0);
                    }
                    Map<DropReason, Long> drops = engine.stats().drops();
                    assertThat(drops.getOrDefault(verdict.dropReason(), 0L)
                            - dropsBefore.getOrDefault(verdict.dropReason(), 0L)).as(at).isEqualTo(1);
                }
            }
        }
        System.out.printf("PacketTraceTest %s: %d random frames traced and sent; verdict, port, bytes and flow-cache "
                + "state as the engine's for all (outcomes %s, flow cache %s)%n", mode, frames, outcomes, cacheStates);
        return new Met(outcomes, cacheStates);
    }

    /** What the flow cache's counters say the packet's lookup found: the owning worker's cache was traced. */
    private static CacheState lookedUp(EngineStats.FlowCacheStats before, EngineStats.FlowCacheStats after) {
        if (after.hits() > before.hits()) {
            return CacheState.HIT;
        }
        if (after.revalidations() > before.revalidations()) {
            return CacheState.STALE;
        }
        return after.misses() > before.misses() ? CacheState.MISS : CacheState.BYPASSED;
    }

    private static List<List<byte[]>> sent(Engine engine) {
        return IntStream.range(0, PORTS)
                .mapToObj(port -> TestTopology.nic(engine, port).takeTransmitted()).toList();
    }

    /**
     * What a trace could change: connections, the flow caches' counters (a lookup, an install, an entry's hit all
     * move one), every other counter of the engine.
     */
    private record Observable(long connections, EngineStats.FlowCacheStats flowCache, Map<DropReason, Long> drops,
            List<EngineStats.PortStats> ports, List<String> workers) {

        static Observable of(Engine engine) {
            EngineStats s = engine.stats();
            return new Observable(engine.connections().size(), s.flowCache(), s.drops(), s.ports(),
                    s.workers().stream().map(w -> w.rxPackets() + "/" + w.txPackets() + "/" + w.ioChainPackets()
                            + "/" + w.flowCache() + "/" + w.drops()).toList());
        }
    }

    @Test
    void aTraceCreatesNoConnectionInstallsNoEntryAndMovesNoCounter() {
        ManualClock clock = new ManualClock(0);
        Random random = new Random(7);
        try (Engine engine = start(Mode.EDP_STANDARD, clock)) {
            for (int i = 0; i < 300; i++) {
                Ingress in = randomFrame(random);
                TestTopology.nic(engine, in.port()).inject(MemorySegment.ofArray(in.frame()), 0, in.frame().length);
                engine.step();
                sent(engine);
            }
            Observable before = Observable.of(engine);
            for (int i = 0; i < 1_000; i++) {
                Ingress in = randomFrame(random);
                engine.trace(in.port(), in.frame());
            }
            assertThat(Observable.of(engine)).isEqualTo(before);
            assertThat(sent(engine)).allSatisfy(frames -> assertThat(frames).isEmpty());
        }
    }

    @Test
    void aFlowsFirstPacketMissesAndStartsAConnectionItsNextHitsTheEntryTheFirstInstalled() throws Exception {
        try (Engine engine = start(Mode.EDP_STANDARD, new ManualClock(0))) {
            byte[] syn = tcp("10.0.0.1", "10.128.0.1", FlowKey.TCP_SYN).frame();
            byte[] data = tcp("10.0.0.1", "10.128.0.1", FlowKey.TCP_ACK).frame();

            PacketTrace first = engine.trace(0, syn);
            assertThat(first.switching().decision()).isEqualTo(SwitchDecision.TO_ROUTER);
            assertThat(first.switching().segment()).isEqualTo(10);
            assertThat(first.firewall().connection()).isEqualTo(ConnectionState.NEW);
            assertThat(first.firewall().ruleId()).isEqualTo(4);
            assertThat(first.routing().route().prefix()).isEqualTo("10.128.0.0/16");
            assertThat(first.routing().nextHop()).isEqualTo(TestTopology.GATEWAY_MAC);
            assertThat(first.flowCache().state()).isEqualTo(CacheState.BYPASSED);
            assertThat(first.verdict().outcome()).isEqualTo(Outcome.FORWARDED);
            assertThat(first.verdict().outPort()).isEqualTo(2);
            assertThat(first.flowKey()).contains("10.0.0.1:1000 > 10.128.0.1:80");
            assertThat(engine.trace(0, data).flowCache().state()).isEqualTo(CacheState.MISS);
            assertThat(engine.trace(0, data).flowCache().installs()).isTrue();

            send(engine, syn);
            PacketTrace afterSyn = engine.trace(0, data);
            assertThat(afterSyn.firewall().connection()).isEqualTo(ConnectionState.SYN_SENT);
            assertThat(afterSyn.flowCache().state()).isEqualTo(CacheState.MISS);
            send(engine, data);
            PacketTrace hit = engine.trace(0, data);
            assertThat(hit.flowCache().state()).isEqualTo(CacheState.HIT);
            assertThat(hit.flowCache().entryGeneration()).isEqualTo(engine.generation());
            assertThat(hit.flowCache().expiresInMillis()).isPositive();
            assertThat(hit.flowCache().cachedAction()).isEqualTo(hit.verdict().action());

            PacketTrace ssh = engine.trace(0, tcp("10.0.0.1", "10.128.0.1", FlowKey.TCP_SYN, 22).frame());
            assertThat(ssh.verdict().dropReason()).isEqualTo(DropReason.FIREWALL_REJECT);
            assertThat(ssh.verdict().ruleId()).isEqualTo(2);
            assertThat(ssh.firewall().allowed()).isFalse();
            assertThat(ssh.routing()).as("a dropped packet reaches no later stage").isNull();
        }
    }

    @Test
    void aTraceKeepsNoConnectionAlive() {
        ManualClock clock = new ManualClock(0);
        try (Engine engine = start(Mode.EDP_STANDARD, clock)) {
            byte[] data = tcp("10.0.0.1", "10.128.0.1", FlowKey.TCP_ACK).frame();
            send(engine, data); // an ACK without a SYN: ESTABLISHED, an hour idle timeout
            byte[] rst = tcp("10.0.0.1", "10.128.0.1", FlowKey.TCP_RST).frame();
            send(engine, rst); // CLOSED: 20 s idle
            assertThat(engine.trace(0, data).firewall().connection()).isEqualTo(ConnectionState.CLOSED);

            // traces at 5, 10 and 15 s would keep it alive past 20 s if a trace refreshed it as a packet does
            for (int i = 0; i < 3; i++) {
                clock.advance(Duration.ofSeconds(5));
                assertThat(engine.trace(0, data).firewall().connection()).isEqualTo(ConnectionState.CLOSED);
            }
            clock.advance(Duration.ofSeconds(6));
            assertThat(engine.trace(0, data).firewall().connection()).isEqualTo(ConnectionState.NEW);
        }
    }

    private static PacketFields tcp(String source, String destination, int flags) {
        return tcp(source, destination, flags, 80);
    }

    private static PacketFields tcp(String source, String destination, int flags, int destinationPort) {
        return new PacketFields(MacAddress.parse("02:00:00:00:00:aa", "source"), MacAddress.parse(ROUTER_MAC, "d"),
                List.of(10), InetAddress.ofLiteral(source), InetAddress.ofLiteral(destination), FlowKey.PROTO_TCP,
                1000, destinationPort, flags, 64, 64);
    }

    private static void send(Engine engine, byte[] frame) {
        LoopbackNic nic = TestTopology.nic(engine, 0);
        assertThat(nic.inject(MemorySegment.ofArray(frame), 0, frame.length)).isTrue();
        engine.step();
        sent(engine);
    }
}
