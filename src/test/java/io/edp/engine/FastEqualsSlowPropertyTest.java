package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.edp.engine.ModelNetwork.CacheSetting;
import io.edp.engine.ModelNetwork.Flow;
import io.edp.engine.ModelNetwork.Host;
import io.edp.engine.ModelNetwork.Pair;
import io.edp.engine.ModelNetwork.Protocol;
import io.edp.engine.ModelNetwork.Tagging;
import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.packet.DropReason;
import io.edp.engine.nic.PortConfig;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;

/**
 * Fast equals slow, as a model-based differential test: random sequences of packets (TCP handshakes, data,
 * FIN and RST; UDP; ICMP echo; IPv4 and IPv6 fragments; VLAN, QinQ and untagged frames; now and then a datagram
 * over an egress port's MTU), clock moves across every timeout (connections, the flow-cache expiry window) and
 * configuration changes (rules, routes, flow cache, port MTUs, TLB, modes, queue moves, cache flushes, connections
 * cleared) drive an engine under test, starting in EDP_STANDARD, and a LEGACY
 * reference in lockstep on one manual clock; every frame must come out of both alike (see {@link SequenceRun}).
 * A failing sequence shrinks to a few events. {@code -Dedp.difftest.tries=N} runs N sequences instead of the
 * CI's {@value #CI_SEQUENCES}. The engine under test runs the live verifier on every fast-path hit: at the end of
 * a sequence it must have found no mismatch, and its rule counters (packets, bytes, connections per rule, fast-path
 * hits included) must equal the reference's.
 *
 * <p>The examples are the ways the promise was seen broken, and the cases it must keep, as fixed sequences.
 */
class FastEqualsSlowPropertyTest {

    static final int CI_SEQUENCES = 2_000;
    static final int MAX_EVENTS = 40;
    private static final LongAdder SEQUENCES = new LongAdder();
    private static final LongAdder EVENTS = new LongAdder();
    private static final LongAdder FRAMES = new LongAdder();
    private static final LongAdder VERIFIER_CHECKS = new LongAdder();
    private static final LongAdder LOG_LINES = new LongAdder();
    private static final LongAdder STORM_CONTROLLED = new LongAdder();
    private static final LongAdder OVER_MTU = new LongAdder();

    /** The runs this property's sequences opened (a chain that fails midway does not hand back its state). */
    private final List<SequenceRun> opened = new ArrayList<>();

    @Property(tries = CI_SEQUENCES)
    @AddLifecycleHook(TriesFromSystemProperty.class)
    void everyFrameLeavesTheEngineUnderTestAsItLeavesLegacy(@ForAll("sequences") ActionChain<SequenceRun> sequence) {
        try {
            sequence.run();
            for (SequenceRun run : opened) {
                EngineStats stats = run.engines().underTest().stats();
                VERIFIER_CHECKS.add(stats.flowCache().verifierChecks());
                STORM_CONTROLLED.add(stats.flood().rateLimited());
                assertThat(stats.flowCache().verifierMismatches()).as("live verifier mismatches: %s",
                        stats.verifierMismatches()).isZero();
                assertThat(run.engines().underTest().ruleStats()).as("rule counters, fast path included")
                        .isEqualTo(run.engines().reference().ruleStats());
            }
        } finally {
            SEQUENCES.increment();
            EVENTS.add(sequence.transformations().size());
            for (SequenceRun run : opened) {
                FRAMES.add(run.frames());
                LOG_LINES.add(run.loggedLines());
                OVER_MTU.add(run.overMtu());
                run.close();
            }
            opened.clear();
        }
    }

    @AfterContainer
    static void summary() {
        if (SEQUENCES.sum() > 0) {
            System.out.printf("fast equals slow: %d sequences, %d events, %d frames through both engines, "
                    + "%d fast-path hits verified live, %d packet-log lines alike, %d floods held back by storm "
                    + "control alike, %d frames over an MTU alike%n", SEQUENCES.sum(), EVENTS.sum(), FRAMES.sum(),
                    VERIFIER_CHECKS.sum(), LOG_LINES.sum(), STORM_CONTROLLED.sum(), OVER_MTU.sum());
        }
    }

    /** {@code -Dedp.difftest.tries=N} overrides the property's tries. */
    static final class TriesFromSystemProperty implements AroundPropertyHook {

        @Override
        public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
            Integer tries = Integer.getInteger("edp.difftest.tries");
            if (tries != null) {
                context.attributes().setTries(tries);
            }
            return property.execute();
        }
    }

    /**
     * Up to {@value #MAX_EVENTS} events on the network's initial configuration (a stateful firewall, 64-entry flow
     * caches expiring in 2–5 s). jqwik shrinks an action chain by dropping any of its events, not only a prefix or
     * suffix as it does for a list, so a failure comes back as the few events that matter.
     */
    @Provide
    Arbitrary<ActionChain<SequenceRun>> sequences() {
        Arbitrary<Integer> flow = Arbitraries.integers().between(0, ModelNetwork.FLOWS.size() - 1)
                .withDistribution(RandomDistribution.biased());
        Arbitrary<Boolean> reply = Arbitraries.of(false, true);
        Arbitrary<Tagging> tagging = Arbitraries.frequency(Tuple.of(16, Tagging.LINK), Tuple.of(1, Tagging.QINQ),
                Tuple.of(1, Tagging.UNTAGGED));
        // ACK, SYN, SYN-ACK, FIN, RST (ACK mostly: it is what the fast path serves)
        Arbitrary<Integer> kind = Arbitraries.frequency(Tuple.of(6, 0), Tuple.of(2, 1), Tuple.of(2, 2),
                Tuple.of(1, 3), Tuple.of(1, 4));
        Arbitrary<Integer> ttl = Arbitraries.frequency(Tuple.of(30, 64), Tuple.of(1, 1), Tuple.of(1, 2));
        // now and then a datagram too big for uplink 1's MTU, or for any port's once an event has lowered it
        Arbitrary<Integer> payload = Arbitraries.frequency(Tuple.of(12, FlowFrames.PAYLOAD),
                Tuple.of(1, ModelNetwork.LARGE_PAYLOAD));
        Arbitrary<ModelEvent> send = Combinators.combine(flow, reply, kind, tagging, ttl, payload).as(Send::new);
        Arbitrary<ModelEvent> fragment = Combinators.combine(flow, reply, Arbitraries.of(0, 1, 3),
                Arbitraries.of(true, false), Arbitraries.integers().between(1, 3), tagging).as(SendFragment::new);
        // across the cache windows (2–5, 20–40, 90–150 s) and the connection timeouts (20, 30, 45, 60 s, 1 h)
        Arbitrary<ModelEvent> advance = Arbitraries.of(1, 2, 3, 5, 8, 21, 31, 46, 61, 100, 151, 3601)
                .map(Advance::new);
        Arbitrary<ModelEvent> rules = Arbitraries.integers().between(0, ModelNetwork.RULES.size() - 1).list()
                .uniqueElements().ofMaxSize(6).map(ApplyRules::new);
        Arbitrary<ModelEvent> routes = Arbitraries.integers().between(0, ModelNetwork.ROUTES.size() - 1).list()
                .uniqueElements().ofMaxSize(ModelNetwork.ROUTES.size()).map(ApplyRoutes::new);
        Arbitrary<ModelEvent> cache = Arbitraries.integers().between(0, ModelNetwork.CACHE_SETTINGS.size() - 1)
                .map(ApplyFlowCache::new);
        Arbitrary<ModelEvent> mtu = Combinators.combine(Arbitraries.integers().between(0, 3),
                Arbitraries.of(ModelNetwork.SMALL_MTU, PortConfig.DEFAULT_MTU)).as(ApplyMtu::new);
        Arbitrary<ModelEvent> tlb = Arbitraries.of(50, 70, 90).map(ApplyTlbThreshold::new);
        Arbitrary<ModelEvent> mode = Arbitraries.of(Mode.EDP_STANDARD, Mode.LEGACY, Mode.EDP_DEDICATED)
                .map(SwitchMode::new);
        Arbitrary<ModelEvent> move = Combinators.combine(Arbitraries.of(0, 1), Arbitraries.of(0, 1))
                .as(MoveQueue::new);
        Arbitrary<ModelEvent> flush = Arbitraries.just(new FlushFlowCaches());
        Arbitrary<ModelEvent> clear = Arbitraries.integers().between(-1, ModelNetwork.FLOWS.size() - 1)
                .map(ClearConnections::new);
        return ActionChain.startWith(this::newRun)
                .withAction(60, action(send))
                .withAction(8, action(fragment))
                .withAction(14, action(advance))
                .withAction(4, action(rules))
                .withAction(3, action(routes))
                .withAction(3, action(cache))
                .withAction(2, action(mtu))
                .withAction(3, action(tlb))
                .withAction(3, action(mode))
                .withAction(2, action(move))
                .withAction(1, action(flush))
                .withAction(2, action(clear))
                .withMaxTransformations(MAX_EVENTS);
    }

    private SequenceRun newRun() {
        SequenceRun run = new SequenceRun(ModelNetwork.config(Mode.EDP_STANDARD, ModelNetwork.INITIAL_RULES,
                ModelNetwork.INITIAL_ROUTES, ModelNetwork.CACHE_SETTINGS.get(0)), ModelNetwork.FLOWS);
        opened.add(run);
        return run;
    }

    private static Action.Independent<SequenceRun> action(Arbitrary<ModelEvent> events) {
        return () -> events.map(e -> Transformer.mutate(e.describe(ModelNetwork.FLOWS), run -> run.run(e)));
    }

    // (1) a configuration push must not cut an established connection, whichever direction speaks first after it

    @Property(generation = GenerationMode.EXHAUSTIVE)
    void aReplyAfterAnUnrelatedApplyIsStillDelivered(@ForAll Protocol protocol,
            @ForAll("unrelatedChanges") ModelEvent change) {
        // the firewall: A may open connections to B (rule 9), everything else is denied (rule 8)
        EngineConfig config = ModelNetwork.config(Mode.EDP_STANDARD, List.of(8, 7), ModelNetwork.INITIAL_ROUTES,
                ModelNetwork.CACHE_SETTINGS.get(1));
        List<Flow> flows = List.of(new Flow(protocol, Pair.A_B, false, 0));
        try (SequenceRun run = new SequenceRun(config, flows)) {
            if (protocol == Protocol.TCP) {
                run.run(List.of(send(0, false, 1), send(0, true, 2), send(0, false, 0)));
            }
            run.run(List.of(send(0, false, 0), send(0, true, 0), change));
            List<Outcome[]> replies = new ArrayList<>();
            for (int second = 0; second < 5; second++) {
                replies.add(run.send(send(0, true, 0)));
                run.run(List.of(send(0, false, 0), new Advance(1)));
            }
            for (Outcome[] reply : replies) {
                assertThat(SequenceRun.passed(reply[0])).as("EDP_STANDARD delivers every reply: %s", reply[0]).isTrue();
                assertThat(SequenceRun.passed(reply[1])).as("LEGACY delivers every reply: %s", reply[1]).isTrue();
            }
        }
    }

    @Provide
    Arbitrary<ModelEvent> unrelatedChanges() {
        // a TLB threshold, and a rule no frame here meets (rule 10: TCP to port 22 on uplink 2) before rules 9 and 8
        return Arbitraries.of(new ApplyTlbThreshold(80), new ApplyRules(List.of(9, 8, 7)));
    }

    // (2) fast-path hits keep their connection alive: no reply is lost while both directions keep talking

    @Example
    void sixtyFourUdpConversationsKeepEveryReplyFor400Seconds() {
        List<Flow> flows = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            flows.add(new Flow(Protocol.UDP, Pair.A_B, false, i));
        }
        EngineConfig config = ModelNetwork.config(Mode.EDP_STANDARD, List.of(8, 7), ModelNetwork.INITIAL_ROUTES,
                new CacheSetting(FlowCache.DEFAULT_CAPACITY, 90, 150)); // the default flow cache
        try (SequenceRun run = new SequenceRun(config, flows)) {
            for (int second = 0; second < 400; second++) {
                for (int flow = 0; flow < flows.size(); flow++) {
                    run.send(send(flow, false, 0));
                    Outcome[] reply = run.send(send(flow, true, 0));
                    if (!SequenceRun.passed(reply[0]) || !SequenceRun.passed(reply[1])) {
                        run.fail("a reply was lost: " + reply[0] + " / " + reply[1]);
                    }
                }
                run.run(new Advance(1));
            }
        }
    }

    // (3) fragments follow their datagram's first fragment: a port-based DROP cannot be bypassed

    @Property(generation = GenerationMode.EXHAUSTIVE)
    void noFragmentOfADatagramBlockedByAPortRulePasses(@ForAll boolean ipv6) {
        // rule 3 drops UDP to port 5353, rule 7 allows the rest
        EngineConfig config = ModelNetwork.config(Mode.EDP_STANDARD, List.of(2, 6), ModelNetwork.INITIAL_ROUTES,
                ModelNetwork.CACHE_SETTINGS.get(0));
        Flow blocked = new Flow(Protocol.UDP, Pair.A_B, ipv6, 1);
        Flow allowed = new Flow(Protocol.UDP, Pair.A_B, ipv6, 0);
        assertThat(blocked.destinationPort()).isEqualTo(5353);
        try (SequenceRun run = new SequenceRun(config, List.of(blocked, allowed))) {
            for (int flow = 0; flow < 2; flow++) {
                // the UDP header, then two 8-byte pieces: the whole datagram in order
                List<Outcome[]> fragments = List.of(run.send(fragment(flow, 0, true)),
                        run.send(fragment(flow, 1, true)), run.send(fragment(flow, 2, false)));
                for (Outcome[] f : fragments) {
                    for (Outcome o : f) {
                        assertThat(SequenceRun.passed(o))
                                .as("a fragment of %s %s", run.flow(flow), flow == 0 ? "must not pass" : "passes")
                                .isEqualTo(flow == 1);
                    }
                }
            }
        }
    }

    // (4) a routed frame leaves with its route's VLAN stack: a QinQ frame routed to VLAN 0 leaves untagged

    @Example
    void aRoutedQinqFrameToARouteOfVlanZeroLeavesUntagged() {
        EngineConfig config = ModelNetwork.config(Mode.EDP_STANDARD, List.of(), ModelNetwork.INITIAL_ROUTES,
                ModelNetwork.CACHE_SETTINGS.get(0));
        // C (behind uplink 2) pings D; the frame is tagged 20 outside, 30 inside; D's route is port 0, VLAN 0
        Flow ping = new Flow(Protocol.ICMP, Pair.C_D, false, 0);
        try (SequenceRun run = new SequenceRun(config, List.of(ping))) {
            Outcome[] out = run.engines().send(FlowFrames.packet(ping, false, 0, Tagging.QINQ, 64, 0));
            byte[] expected = FlowFrames.packet(ping, false, 0, new int[0], ModelNetwork.ROUTER_MAC, Host.D.mac, 63, 0);
            Map<Integer, List<String>> untaggedToD = Map.of(0, List.of(HexFormat.of().formatHex(expected)));
            assertThat(out[0].transmitted()).as("EDP_STANDARD: %s", out[0]).isEqualTo(untaggedToD);
            assertThat(out[1].transmitted()).as("LEGACY: %s", out[1]).isEqualTo(untaggedToD);
        }
    }

    // (5) a connection restarted by the other side keeps the rule its cached directions were installed with

    @Example
    void aConnectionRestartedByItsResponderIsAttributedAsItsCachedPackets() {
        // rule 1 lets A open connections; nothing matches B's direction, which the default then allows
        EngineConfig config = ModelNetwork.config(Mode.EDP_STANDARD, List.of(0), ModelNetwork.INITIAL_ROUTES,
                ModelNetwork.CACHE_SETTINGS.get(1));
        try (SequenceRun run = new SequenceRun(config, List.of(new Flow(Protocol.TCP, Pair.A_B, false, 0)))) {
            // A's handshake and data (its ACKs cached under rule 1), a reset, then B's SYN on the closed connection
            run.run(List.of(send(0, false, 1), send(0, true, 2), send(0, false, 0), send(0, false, 0),
                    send(0, false, 4), send(0, true, 1), send(0, false, 0), send(0, true, 0), send(0, true, 0)));
            EngineStats stats = run.engines().underTest().stats();
            assertThat(stats.flowCache().verifierChecks()).as("fast-path hits verified").isPositive();
            assertThat(stats.flowCache().verifierMismatches()).as("live verifier mismatches: %s",
                    stats.verifierMismatches()).isZero();
        }
    }

    // (6) a logged connection's cached packets count in its TERM line exactly as the slow path counts them

    @Property(generation = GenerationMode.EXHAUSTIVE)
    void aLoggedConnectionEndsWithTheSameLineInBothModes(@ForAll boolean closedByFin) {
        // rule 9 (logged) lets A open connections to B
        EngineConfig config = ModelNetwork.config(Mode.EDP_STANDARD, List.of(8, 7), ModelNetwork.INITIAL_ROUTES,
                ModelNetwork.CACHE_SETTINGS.get(1));
        try (SequenceRun run = new SequenceRun(config, List.of(new Flow(Protocol.TCP, Pair.A_B, false, 0),
                new Flow(Protocol.UDP, Pair.A_B, false, 0)))) {
            Outcome[] syn = run.send(send(0, false, 1));
            assertThat(syn[0].logged()).singleElement().asString().contains("match PASS 9 OUT ").endsWith(" S");
            run.send(send(0, true, 2));
            for (int i = 0; i < 10; i++) {
                run.send(send(0, false, 0));
                run.send(send(0, true, 0));
                assertThat(run.send(send(1, i % 2 == 1, 0))[0].logged()).hasSize(i == 0 ? 1 : 0);
            }
            Outcome[] end = closedByFin ? run.send(send(0, true, 3)) : run.send(send(0, false, 4));
            if (closedByFin) {
                assertThat(end[0].logged()).isEmpty(); // the first FIN only half-closes
                end = run.send(send(0, false, 3));
            }
            assertThat(end[0].logged()).singleElement().asString()
                    .contains("TERM 9 OUT TCP " + (closedByFin ? "FIN " : "RST "))
                    .contains(closedByFin ? " 12/12 " : " 12/11 ");
            assertThat(run.engines().underTest().stats().flowCache().hits()).as("fast-path hits").isPositive();
            List<List<String>> timedOut = run.engines().advance(java.time.Duration.ofSeconds(61));
            assertThat(timedOut.get(0)).as("the UDP conversation's end").singleElement().asString()
                    .contains("TERM 9 OUT UDP TIMEOUT ").contains(" 5/5 ");
            assertThat(timedOut.get(1)).isEqualTo(timedOut.get(0));
        }
    }

    // (7) flooding and the router's own packets: slow path only, the same frames in every mode

    @Example
    void floodedFramesAndTheRoutersAnswersLeaveAlikeWhicheverPathRan() {
        // six floods at one instant: the default storm control lets them all through
        EngineConfig config = ModelNetwork.config(Mode.EDP_STANDARD, List.of(), ModelNetwork.INITIAL_ROUTES,
                ModelNetwork.CACHE_SETTINGS.get(1)).toBuilder().stormControl(StormControl.DEFAULT).build();
        List<Flow> flows = List.of(new Flow(Protocol.UDP, Pair.A_X, false, 0),
                new Flow(Protocol.UDP, Pair.B_X, false, 0), new Flow(Protocol.ICMP, Pair.A_G, false, 0),
                new Flow(Protocol.ICMP, Pair.E_G, true, 0), new Flow(Protocol.UDP, Pair.A_C, false, 0));
        try (SequenceRun run = new SequenceRun(config, flows)) {
            for (int round = 0; round < 3; round++) {
                assertThat(run.send(send(0, false, 0))[0].transmitted().keySet()).as("A's broadcast: E and the uplink")
                        .containsExactlyInAnyOrder(0, 3);
                assertThat(run.send(send(1, false, 0))[0].transmitted().keySet()).as("B's broadcast: A and E")
                        .containsExactlyInAnyOrder(1, 3);
                assertThat(run.send(send(2, false, 0))[0].transmitted().keySet()).as("the echo reply to A")
                        .containsExactly(1);
                assertThat(run.send(send(3, false, 0))[0].transmitted().keySet()).as("the echo reply to E")
                        .containsExactly(3);
                Outcome[] expired = run.send(new Send(4, false, 0, Tagging.LINK, 1));
                assertThat(expired[0].transmitted().keySet()).as("time exceeded back to A").containsExactly(1);
                assertThat(expired[1].transmitted()).isEqualTo(expired[0].transmitted());
            }
            EngineStats stats = run.engines().underTest().stats();
            assertThat(stats.flood().frames()).isEqualTo(6);
            assertThat(stats.routerReplies().echoReplies()).isEqualTo(6);
            assertThat(stats.routerReplies().timeExceeded()).isEqualTo(3);
        }
    }

    // (8) the egress MTU is checked per packet: a cached flow meets an MTU lowered live as its first packet would

    @Property(generation = GenerationMode.EXHAUSTIVE)
    void aLargeDatagramOfACachedFlowMeetsAnMtuLoweredLive(@ForAll boolean ipv6) {
        EngineConfig config = ModelNetwork.config(Mode.EDP_STANDARD, List.of(), ModelNetwork.INITIAL_ROUTES,
                ModelNetwork.CACHE_SETTINGS.get(1));
        Flow toB = new Flow(Protocol.UDP, Pair.A_B, ipv6, 0); // switched out of uplink 0
        Flow toC = new Flow(Protocol.UDP, Pair.A_C, ipv6, 0); // routed out of uplink 1
        int large = ModelNetwork.LARGE_PAYLOAD;
        try (SequenceRun run = new SequenceRun(config, List.of(toB, toC))) {
            run.run(List.of(new ApplyMtu(2, PortConfig.DEFAULT_MTU), send(0, false, 0), send(1, false, 0)));
            for (int flow = 0; flow < 2; flow++) {
                Outcome[] fits = run.send(new Send(flow, false, 0, Tagging.LINK, 64, large));
                assertThat(SequenceRun.passed(fits[0])).as("%s, %d bytes under 1,500", run.flow(flow), large).isTrue();
            }
            run.run(List.of(new ApplyMtu(0, ModelNetwork.SMALL_MTU), new ApplyMtu(2, ModelNetwork.SMALL_MTU)));
            long hits = run.engines().underTest().stats().flowCache().hits();
            Outcome[] switched = run.send(new Send(0, false, 0, Tagging.LINK, 64, large));
            assertThat(switched[0].transmitted()).as("switched: dropped, a switch has no address to answer from")
                    .isEmpty();
            Outcome[] routed = run.send(new Send(1, false, 0, Tagging.LINK, 64, large));
            assertThat(routed[0].transmitted().keySet()).as("routed: answered back to A").containsExactly(Host.A.port);
            for (Outcome[] tooBig : List.of(switched, routed)) {
                assertThat(tooBig[0].drops()).containsEntry(DropReason.MTU_EXCEEDED, 1L);
            }
            assertThat(SequenceRun.passed(run.send(send(1, false, 0))[0])).as("a small datagram still fits").isTrue();
            assertThat(run.engines().underTest().stats().flowCache().hits()).as("fast-path hits after the change")
                    .isGreaterThan(hits);
        }
    }

    private static Send send(int flow, boolean reply, int kind) {
        return new Send(flow, reply, kind, Tagging.LINK, 64);
    }

    private static SendFragment fragment(int flow, int offsetUnits, boolean more) {
        return new SendFragment(flow, false, offsetUnits, more, 7, Tagging.LINK);
    }
}
