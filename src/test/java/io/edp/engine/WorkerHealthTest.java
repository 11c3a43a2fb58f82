package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.TrafficSink;
import io.edp.engine.packet.DropReason;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Verdict;
import io.edp.engine.time.SystemClock;
import io.edp.engine.worker.Worker;
import io.edp.engine.worker.WorkerHealth;
import io.edp.engine.worker.WorkerHealth.State;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Workers cannot wedge an engine: a Throwable in a burst is counted and survived without leaking the burst's
 * buffers, a dead or stalled worker is reported with its reason, and neither makes apply, sync or close hang.
 */
class WorkerHealthTest {

    private static final String DIED = "worker 1 died: java.lang.InternalError: injected";
    private static final FirewallRule DROP_ALL = FirewallRule.of(1, "any", "any", 0, Verdict.DROP);

    /** Two workers: worker 0 polls the uplinks (0 and 2), worker 1 the VM port (1). */
    private static EngineConfig.Builder twoWorkers() {
        return TestTopology.config(Mode.EDP_STANDARD).workers(0, 2).ports(List.of(
                PortConfig.loopback(0, "uplink0", 0, 1, 2),
                PortConfig.loopback(1, "vm-a-eth0", 0, 1, 2),
                PortConfig.loopback(2, "uplink1", 0, 1, 2)));
    }

    @Test
    void anErrorInABurstIsCountedAndSurvivedAndItsBuffersGoBack() {
        // 1,024 buffers: were each faulted burst's (up to 32) leaked, 200 of them would drain the pool
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).mbufs(1024).build())) {
            int faults = 200;
            for (int i = 0; i < faults; i++) {
                engine.injectFault(0, new AssertionError("injected " + i));
                Traffic.sendAll(engine, 0, TestTopology.routed(8, 64));
            }
            TrafficSink sink = TestTopology.nic(engine, 2).sink();
            long before = sink.packets();
            Traffic.sendAll(engine, 0, TestTopology.routed(64, 10_000));

            EngineStats stats = engine.stats();
            assertThat(sink.packets() - before).isEqualTo(10_000);
            assertThat(stats.workers().getFirst().exceptions()).isEqualTo(faults);
            assertThat(stats.drops().get(DropReason.WORKER_EXCEPTION)).isBetween((long) faults, 32L * faults);
            assertThat(stats.txPackets() + stats.dropped()).isEqualTo(stats.rxPackets());
            assertThat(stats.workers().getFirst().health().state()).isEqualTo(State.RUNNING);
        }
    }

    @Test
    void survivedErrorsAreLoggedOnceWithTheirTraceThenSummarizedAtMostOnceASecond() {
        Logger log = Logger.getLogger(Worker.class.getName());
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler recorder = new Handler() {
            @Override
            public void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(recorder);
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            int faults = 50;
            long start = System.nanoTime();
            for (int i = 0; i < faults; i++) {
                engine.injectFault(0, new AssertionError("injected " + i));
                Traffic.sendAll(engine, 0, TestTopology.routed(8, 64));
            }
            long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();

            assertThat(engine.stats().workers().getFirst().exceptions()).isEqualTo(faults);
            assertThat(records.getFirst().getThrown()).hasMessage("injected 0");
            assertThat(records).hasSizeLessThanOrEqualTo((int) seconds + 2).hasSizeLessThan(faults);
            assertThat(records.subList(1, records.size()))
                    .allSatisfy(r -> assertThat(r.getMessage()).contains("more exceptions, the last: "));
        } finally {
            log.removeHandler(recorder);
        }
    }

    @Test
    void aWorkerKilledByAVirtualMachineErrorIsReportedDeadWithItsReason() {
        try (Engine engine = Engine.start(twoWorkers().build())) {
            kill(engine);

            EngineStats stats = engine.stats();
            assertThat(stats.workers().get(1).health()).isEqualTo(new WorkerHealth(1, State.DEAD, DIED));
            assertThat(stats.workers().get(1).exceptions()).isEqualTo(1);
            assertThat(stats.workers().get(0).health().state()).isEqualTo(State.RUNNING);
            assertThat(engine.fault()).map(WorkerHealth::reason).hasValue(DIED);
            assertThatThrownBy(engine::sync).hasMessage(DIED);
        }
    }

    @Test
    void applyWithADeadWorkerFailsAtOnceAndLeavesTheOldGenerationRunning() {
        try (Engine engine = Engine.start(twoWorkers().build())) {
            kill(engine);
            EngineConfig old = engine.config();

            assertThatThrownBy(() -> engine.apply(old.toBuilder().rule(DROP_ALL).build()))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining(DIED);

            assertThat(engine.generation()).isEqualTo(1);
            assertThat(engine.config()).isEqualTo(old);
            TrafficSink sink = TestTopology.nic(engine, 2).sink();
            TestTopology.nic(engine, 0).startTraffic(TestTopology.routed(16, 1_000));
            Await.until("1,000 frames forwarded by worker 0 under generation 1", () -> sink.packets() == 1_000,
                    Duration.ofSeconds(20), () -> engine.stats().toString());
        }
    }

    @Test
    void aStalledWorkerIsReportedAndAnApplyItCannotTakeFailsWithinTheDeadlineKeepingTheOldConfiguration() {
        StallingNic hung = new StallingNic();
        EngineConfig old = twoWorkers().port(new PortConfig(3, "hung0", 0, 1, 1, StallingNic.KIND, Map.of())).build();
        try (Engine engine = Engine.start(old, hung.drivers(), SystemClock.INSTANCE)) {
            stall(hung);

            long start = System.nanoTime();
            assertThatThrownBy(() -> engine.apply(old.toBuilder().rule(DROP_ALL).build()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("worker 1 did not take generation 2 within 5 s (worker 1 stalled: ");
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(took).isBetween(Worker.RESPONSE_DEADLINE, Worker.RESPONSE_DEADLINE.plusSeconds(3));
            assertThat(engine.config()).isEqualTo(old);
            assertThat(engine.generation()).isEqualTo(3); // the old configuration, published again
            assertThat(engine.fault()).map(WorkerHealth::state).hasValue(State.STALLED);
            assertThat(engine.fault().orElseThrow().reason()).contains("StallingNic.rxBurst");
            TrafficSink sink = TestTopology.nic(engine, 2).sink();
            TestTopology.nic(engine, 0).startTraffic(TestTopology.routed(16, 1_000));
            Await.until("1,000 frames forwarded by worker 0 without the rule", () -> sink.packets() == 1_000,
                    Duration.ofSeconds(20), () -> engine.stats().toString());

            hung.release();
            Await.until("worker 1 to run again", () -> engine.fault().isEmpty(), Duration.ofSeconds(10));
            assertThat(engine.apply(old.toBuilder().rule(DROP_ALL).build())).isEqualTo(4);
        }
    }

    @Test
    void closingAnEngineWithAStalledWorkerAbandonsItInsteadOfHanging() {
        StallingNic hung = new StallingNic();
        EngineConfig config = twoWorkers().port(new PortConfig(3, "hung0", 0, 1, 1, StallingNic.KIND, Map.of()))
                .build();
        Engine engine = Engine.start(config, hung.drivers(), SystemClock.INSTANCE);
        stall(hung);
        try {
            long start = System.nanoTime();
            engine.close();
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isLessThan(Worker.RESPONSE_DEADLINE.plusSeconds(3));
        } finally {
            hung.release();
        }
    }

    /** Worker 1, which polls port 3, blocks in its driver. */
    private static void stall(StallingNic hung) {
        hung.stall();
        Await.until("worker 1 to block in its driver", hung::holding, Duration.ofSeconds(10));
    }

    /** Worker 1 takes a frame on the VM port, and the burst throws an InternalError: the worker dies. */
    private static void kill(Engine engine) {
        engine.injectFault(1, new InternalError("injected"));
        TestTopology.nic(engine, 1).startTraffic(TestTopology.routed(1, 1));
        Await.until("worker 1 to die", () -> engine.fault().isPresent(), Duration.ofSeconds(10));
    }
}
