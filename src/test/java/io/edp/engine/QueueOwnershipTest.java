package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.nic.loopback.TrafficSink;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueueOwnershipTest {

    private static int owner(Engine engine, int port, int queue) {
        return engine.stats().queues().stream().filter(q -> q.port() == port && q.queue() == queue)
                .findFirst().orElseThrow().worker();
    }

    @Test
    void queuesStartRoundRobinOverTheWorkersOfTheirPortsNumaNode() {
        EngineConfig config = EngineConfig.builder()
                .port(PortConfig.loopback(0, "nic-node0", 0, 2, 1))
                .port(PortConfig.loopback(1, "nic-node1", 1, 3, 1))
                .port(PortConfig.loopback(2, "nic-node7", 7, 2, 1))
                .workers(0, 1).workers(1, 2)
                .mbufs(2048).build();
        try (Engine engine = Engine.start(config)) {
            EngineStats stats = engine.stats();
            assertThat(stats.workers()).extracting(EngineStats.WorkerStats::numaNode).containsExactly(0, 1, 1);
            assertThat(List.of(owner(engine, 0, 0), owner(engine, 0, 1))).containsOnly(0);
            assertThat(List.of(owner(engine, 1, 0), owner(engine, 1, 1), owner(engine, 1, 2)))
                    .containsExactly(1, 2, 1);
            // node 7 has no workers: its queues go round robin over all of them
            assertThat(List.of(owner(engine, 2, 0), owner(engine, 2, 1))).containsExactly(0, 1);
        }
    }

    @Test
    void movingAQueueWhileTrafficRunsLosesAndReordersNothing() {
        EngineConfig config = TestTopology.config(Mode.EDP_STANDARD).workers(0, 2).build();
        try (Engine engine = Engine.start(config)) {
            // unlimited traffic that stops after the moves: how many moves fit a run would depend on the load
            TrafficGenerator generator = TestTopology.nic(engine, 0)
                    .startTraffic(TestTopology.routed(500, 0).withRate(500_000));
            TrafficSink sink = TestTopology.nic(engine, 2).sink();
            for (int move = 0; move < 20; move++) {
                long seen = sink.packets();
                Await.until("traffic between two moves", () -> sink.packets() > seen, Duration.ofSeconds(30));
                int from = owner(engine, 0, 0);
                engine.moveQueue(0, 0, 1 - from);
                assertThat(owner(engine, 0, 0)).isEqualTo(1 - from);
            }
            generator.stop();
            Traffic.drained(engine, generator.sent());
            assertThat(sink.packets()).isEqualTo(generator.sent());
            assertThat(sink.lost()).isZero();
            assertThat(sink.reordered()).isZero();
            EngineStats stats = engine.stats();
            assertThat(stats.queues()).allSatisfy(q -> assertThat(q.busyNanos()).isGreaterThanOrEqualTo(0));
            long queuePackets = stats.queues().stream().mapToLong(EngineStats.QueueStats::packets).sum();
            assertThat(queuePackets).isEqualTo(generator.sent());
            assertThat(stats.workers()).allSatisfy(w -> assertThat(w.busyNanos()).isPositive());
        }
    }

    @Test
    void movingToAnUnknownWorkerOrQueueIsRejected() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            assertThatThrownBy(() -> engine.moveQueue(0, 0, 5)).hasMessageContaining("toWorker");
            assertThatThrownBy(() -> engine.moveQueue(0, 9, 0)).hasMessageContaining("no RX queue 9 on port 0");
        }
    }

    @Test
    void anIdleStandardEngineUsesNextToNoCpu() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            long id = engine.workerThreadIds()[0];
            long cpu0 = threads.getThreadCpuTime(id);
            long wall0 = System.nanoTime();
            Await.until("half a second of idling", () -> System.nanoTime() - wall0 > 500_000_000L,
                    Duration.ofSeconds(5));
            long cpu = threads.getThreadCpuTime(id) - cpu0;
            long wall = System.nanoTime() - wall0;
            assertThat((double) cpu / wall).as("worker CPU share while idle").isLessThan(0.10);
        }
    }

    @Test
    void portsComeAndGoWhileTheEngineRuns() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).workers(0, 2).build())) {
            String vmB = "02:00:00:00:00:02";
            EngineConfig withVmB = engine.config().toBuilder()
                    .port(PortConfig.loopback(3, "vm-b-eth0", 0, 1, 2))
                    .vnic(new VnicConfig("vm-b-eth0", "vm-b", 3, vmB, 10, AdapterType.VMXNET3)).build();
            assertThat(engine.apply(withVmB)).isEqualTo(2);
            assertThat(engine.stats().queues()).anySatisfy(q -> assertThat(q.port()).isEqualTo(3));

            Traffic.sendAll(engine, 0, TestTopology.routed(20, 200).withMacs("02:00:00:00:00:aa", vmB));
            assertThat(TestTopology.nic(engine, 3).sink().packets()).isEqualTo(200);

            EngineConfig withoutVmA = withVmB.toBuilder()
                    .ports(List.of(withVmB.port(0), withVmB.port(2), withVmB.port(3)))
                    .vnics(List.of(withVmB.vnics().get(1)))
                    .routes(List.of(withVmB.routes().get(0))).build();
            assertThat(engine.apply(withoutVmA)).isEqualTo(3);
            assertThatThrownBy(() -> engine.driver(1)).hasMessageContaining("no port 1");
            assertThat(engine.stats().queues()).noneSatisfy(q -> assertThat(q.port()).isEqualTo(1));

            // vm-a's MAC is unknown now: frames for it from an uplink are dropped, not sent to a closed port
            long before = engine.stats().dropped();
            Traffic.sendAll(engine, 0, TestTopology.routed(20, 100)
                    .withMacs("02:00:00:00:00:aa", TestTopology.VM_A_MAC).withFirstFlowId(100));
            EngineStats stats = engine.stats();
            assertThat(stats.dropped() - before).isEqualTo(100);
            assertThat(stats.drops()).containsKey(io.edp.engine.packet.DropReason.NO_DESTINATION);
        }
    }
}
