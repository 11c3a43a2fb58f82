package io.edp.engine.tlb;

import io.edp.engine.AdapterType;
import io.edp.engine.Await;
import io.edp.engine.Engine;
import io.edp.engine.EngineBalancing;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.Mode;
import io.edp.engine.VnicConfig;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.nic.loopback.TrafficSink;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real packets through the real engine: an uplink with 4 RX queues behind NetQueue steering (vm-a's MAC and
 * VLAN into a shared RSS pool of all 4 queues), switched to vm-a's port, whose sink checks every flow's
 * sequence numbers. Queues change worker while traffic flows.
 */
class QueueMoveUnderTrafficTest {

    private static final String VM_A_MAC = "02:00:00:00:00:01";
    private static final int VLAN = 10;
    private static final int UPLINK = 0;
    private static final int VM_PORT = 1;
    private static final int FLOWS = 256;

    private static final EngineConfig CONFIG = EngineConfig.builder()
            .mode(Mode.EDP_STANDARD)
            .port(new PortConfig(UPLINK, "uplink0", 0, 4, 2, "loopback", Map.of("steering", "netqueue", "rss", "true")))
            .port(PortConfig.loopback(VM_PORT, "vm-a-eth0", 0, 1, 2))
            .vnic(new VnicConfig("vm-a-eth0", "vm-a", VM_PORT, VM_A_MAC, VLAN, AdapterType.VMXNET3))
            .workers(0, 2)
            .mbufs(4096)
            .build();

    private static Engine engine() {
        return Engine.start(CONFIG);
    }

    private static TrafficProfile toVmA(long packets) {
        return TrafficProfile.udp().withFlows(FLOWS).withPackets(packets)
                .withMacs("02:00:00:00:00:aa", VM_A_MAC).withVlan(VLAN);
    }

    private static LoopbackNic nic(Engine engine, int port) {
        return (LoopbackNic) engine.driver(port);
    }

    private static void awaitDelivered(Engine engine, TrafficSink sink, long packets) {
        Await.until(packets + " frames at vm-a", () -> sink.packets() == packets, Duration.ofSeconds(60),
                () -> engine.stats().toString());
    }

    @Test
    void queuesMovingWhileTrafficFlowsLoseAndReorderNothing() {
        try (Engine engine = engine()) {
            // unlimited traffic that stops after the moves: how many moves fit a run would depend on the load
            TrafficGenerator generator = nic(engine, UPLINK).startTraffic(toVmA(0).withRate(150_000));
            TrafficSink sink = nic(engine, VM_PORT).sink();
            for (int move = 0; move < 200; move++) {
                long seen = sink.packets();
                Await.until("traffic between two moves", () -> sink.packets() > seen, Duration.ofSeconds(30));
                int queue = move % 4;
                int owner = owner(engine.stats(), UPLINK, queue);
                engine.moveQueue(UPLINK, queue, 1 - owner);
            }
            generator.stop();
            awaitDelivered(engine, sink, generator.sent());

            assertThat(sink.lost()).isZero();
            assertThat(sink.reordered()).isZero();
            assertThat(engine.stats().dropped()).isZero();
        }
    }

    @Test
    void movedQueuesFlowsAreLearnedAgainByTheNewOwner() {
        try (Engine engine = engine()) {
            for (int queue = 0; queue < 4; queue++) {
                engine.moveQueue(UPLINK, queue, 0);
            }
            TrafficSink sink = nic(engine, VM_PORT).sink();
            nic(engine, UPLINK).startTraffic(toVmA(4 * FLOWS));
            awaitDelivered(engine, sink, 4 * FLOWS);
            EngineStats before = engine.stats();

            engine.moveQueue(UPLINK, 2, 1);
            // the same 5-tuples again, tracked by the sink under new flow ids
            nic(engine, UPLINK).startTraffic(toVmA(4 * FLOWS).withFirstFlowId(FLOWS));
            awaitDelivered(engine, sink, 8 * FLOWS);
            EngineStats after = engine.stats();

            long movedFlows = (queueStats(after, UPLINK, 2).packets() - queueStats(before, UPLINK, 2).packets()) / 4;
            long newOwnerMisses = after.workers().get(1).flowCache().misses()
                    - before.workers().get(1).flowCache().misses();
            long oldOwnerMisses = after.workers().get(0).flowCache().misses()
                    - before.workers().get(0).flowCache().misses();
            assertThat(movedFlows).isPositive();
            assertThat(newOwnerMisses).isEqualTo(movedFlows);
            assertThat(oldOwnerMisses).isZero();
            assertThat(sink.lost()).isZero();
            assertThat(sink.reordered()).isZero();
        }
    }

    @Test
    void balancerSpreadsQueuesPiledOnOneWorkerUnderTraffic() {
        try (Engine engine = engine()) {
            for (int queue = 0; queue < 4; queue++) {
                engine.moveQueue(UPLINK, queue, 0);
            }
            // trigger on any load so the small traffic of a test is enough; no quiet time, to move at once
            TlbConfig config = new TlbConfig(true, Duration.ofMillis(100), 0.001, 0.10, Duration.ZERO, 16);
            ThreadLoadBalancer tlb =
                    new ThreadLoadBalancer(config, new EngineBalancing(engine), InstantSource.system());
            long packets = 400_000;
            nic(engine, UPLINK).startTraffic(toVmA(packets).withRate(200_000));
            TrafficSink sink = nic(engine, VM_PORT).sink();
            tlb.runCycle();

            // one cycle per 20,000 delivered frames, until a plan is applied or the traffic is over
            Await.until("a TLB decision that moves queues", () -> {
                long seen = sink.packets();
                Await.until("more traffic", () -> sink.packets() > seen + 20_000 || sink.packets() == packets,
                        Duration.ofSeconds(30));
                return tlb.runCycle().filter(d -> d.outcome() == TlbDecision.Outcome.APPLIED).isPresent()
                        || sink.packets() == packets;
            }, Duration.ofSeconds(60));
            awaitDelivered(engine, sink, packets);

            TlbDecision applied = tlb.history().stream()
                    .filter(d -> d.outcome() == TlbDecision.Outcome.APPLIED).findFirst().orElseThrow();
            assertThat(applied.moves()).isNotEmpty().allMatch(move -> move.fromWorker() == 0 && move.toWorker() == 1);
            assertThat(engine.stats().workers().get(1).queues()).anyMatch(queue -> queue.startsWith(UPLINK + "/"));
            assertThat(sink.lost()).isZero();
            assertThat(sink.reordered()).isZero();
        }
    }

    /**
     * The engine's own balancer ({@link EngineConfig#tlb()}), off at start, switched on by a live apply while the
     * uplink's queues are piled on worker 0: it spreads them; its decisions are in the engine's stats and survive
     * the apply that switches it off again, and the queues are where its applied decisions put them.
     */
    @Test
    void enginesBalancerSwitchedOnByApplySpreadsQueuesAndKeepsItsDecisionsAcrossReconfiguration() {
        try (Engine engine = engine()) {
            assertThat(engine.stats().tlb().config().enabled()).as("off unless configured").isFalse();
            for (int queue = 0; queue < 4; queue++) {
                engine.moveQueue(UPLINK, queue, 0);
            }
            TrafficGenerator generator = nic(engine, UPLINK).startTraffic(toVmA(0).withRate(100_000)
                    .withDuration(Duration.ofSeconds(60)));

            // trigger on any load, so a test's small traffic is enough; no quiet time; a history nothing falls out of
            TlbConfig fast = new TlbConfig(true, Duration.ofMillis(50), 0.001, 0.10, Duration.ZERO, 10_000);
            engine.apply(CONFIG.toBuilder().tlb(fast).build());
            // a decision is recorded once all of its moves are made, so wait for it rather than for the first move
            Await.until("the balancer to apply a plan", () -> applied(engine.stats().tlb()).isPresent(),
                    Duration.ofSeconds(60), () -> engine.stats().tlb().toString());
            TlbStats whileOn = engine.stats().tlb();
            // at this threshold every cycle under load is a decision, and noise in a load this small may undo one
            TlbConfig off = fast.withEnabled(false).withThreshold(0.9);
            engine.apply(CONFIG.toBuilder().tlb(off).build());
            generator.stop();
            TrafficSink sink = nic(engine, VM_PORT).sink();
            awaitDelivered(engine, sink, generator.sent());

            TlbStats reconfigured = engine.stats().tlb();
            assertThat(reconfigured.config()).isEqualTo(off);
            assertThat(reconfigured.recentDecisions()).containsAll(whileOn.recentDecisions());
            TlbDecision first = applied(reconfigured).orElseThrow();
            assertThat(first.trigger()).isEqualTo(Trigger.OVERLOAD);
            assertThat(first.moves()).isNotEmpty().allMatch(move -> move.fromWorker() == 0 && move.toWorker() == 1
                    && move.queue().port() == UPLINK);
            assertThat(first.loadsBefore().get(0)).isGreaterThan(first.loadsBefore().get(1));
            // a cycle under way when the balancer was switched off makes its moves, then records its decision
            Await.until("the queues where the applied decisions put them", () -> {
                EngineStats stats = engine.stats();
                return uplinkQueueOwners(stats).equals(ownersAfter(stats.tlb().recentDecisions()));
            }, Duration.ofSeconds(10), () -> engine.stats().toString());
            assertThat(sink.lost()).isZero();
            assertThat(sink.reordered()).isZero();
        }
    }

    /** Where the uplink's queues are after the applied decisions' moves, starting from all on worker 0. */
    private static List<Integer> ownersAfter(List<TlbDecision> decisions) {
        Integer[] owners = {0, 0, 0, 0};
        decisions.stream().filter(d -> d.outcome() == TlbDecision.Outcome.APPLIED)
                .flatMap(d -> d.moves().stream())
                .forEach(move -> owners[move.queue().rxQueue()] = move.toWorker());
        return List.of(owners);
    }

    private static Optional<TlbDecision> applied(TlbStats tlb) {
        return tlb.recentDecisions().stream().filter(d -> d.outcome() == TlbDecision.Outcome.APPLIED).findFirst();
    }

    private static List<Integer> uplinkQueueOwners(EngineStats stats) {
        return stats.queues().stream().filter(q -> q.port() == UPLINK)
                .sorted(Comparator.comparingInt(EngineStats.QueueStats::queue))
                .map(EngineStats.QueueStats::worker).toList();
    }

    private static int owner(EngineStats stats, int port, int queue) {
        return queueStats(stats, port, queue).worker();
    }

    private static EngineStats.QueueStats queueStats(EngineStats stats, int port, int queue) {
        return stats.queues().stream().filter(q -> q.port() == port && q.queue() == queue).findFirst().orElseThrow();
    }
}
