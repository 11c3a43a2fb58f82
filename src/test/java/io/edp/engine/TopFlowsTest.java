package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Top flows come from snapshots each worker takes of its own flow cache between bursts: after real traffic
 * through a real engine they hold every worker's busiest flows with their counters and actions, and a reader
 * never asks a worker for anything.
 */
class TopFlowsTest {

    private static final int FRAME_BYTES = 128;

    @Test
    void snapshotsHoldEachWorkersFlowsWithTheirCountersAndActions() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).workers(0, 2).build())) {
            Traffic.sendAll(engine, 0, TestTopology.routed(50, 500).withFrameBytes(FRAME_BYTES));
            Traffic.sendAll(engine, 0, TestTopology.routed(5, 200).withFrameBytes(FRAME_BYTES)
                    .withAddresses("10.1.0.0", "10.128.0.0", 16));
            TopFlows top = takenAfter(engine, Instant.now());

            assertThat(top.flows()).hasSize(55).allSatisfy(f -> {
                assertThat(f.bytes()).isEqualTo(f.packets() * FRAME_BYTES);
                assertThat(f.action()).startsWith("output(port 2");
            });
            List<FlowStats> busiest = top.flows().stream()
                    .sorted(Comparator.comparingLong(FlowStats::packets).reversed()).limit(6).toList();
            assertThat(busiest).extracting(FlowStats::packets).containsExactly(40L, 40L, 40L, 40L, 40L, 10L);
            assertThat(top.flows().stream().mapToLong(FlowStats::packets).sum()).isEqualTo(700);
            assertThat(top.passes()).extracting(TopFlows.WorkerPass::worker).containsExactlyInAnyOrder(0, 1);
            Map<Integer, Long> perWorker = top.flows().stream()
                    .collect(Collectors.groupingBy(FlowStats::worker, Collectors.counting()));
            assertThat(top.passes()).allSatisfy(p -> {
                assertThat(p.flows()).isEqualTo(perWorker.getOrDefault(p.worker(), 0L).intValue());
                assertThat(p.passNanos()).isPositive();
            });
            assertThat(perWorker).as("RSS spreads the flows over both workers").hasSize(2);
        }
    }

    @Test
    void aWorkerWithMoreFlowsThanTheSnapshotKeepsItsBusiest() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            int perWorker = engine.topFlows().perWorker();
            Traffic.sendAll(engine, 0, TestTopology.routed(3_000, 6_000));
            Traffic.sendAll(engine, 0, TestTopology.routed(10, 50).withAddresses("10.1.0.0", "10.128.0.0", 16));
            TopFlows top = takenAfter(engine, Instant.now());

            assertThat(engine.stats().flowCache().entries()).isEqualTo(3_010);
            assertThat(top.flows()).hasSize(perWorker);
            assertThat(top.flows().stream().filter(f -> f.packets() == 5)).hasSize(10);
            assertThat(top.flows()).allSatisfy(f -> assertThat(f.packets()).isGreaterThanOrEqualTo(2));
        }
    }

    @Test
    void aFlushEmptiesTheNextSnapshotAndANewGenerationMarksEntriesStale() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            Traffic.sendAll(engine, 0, TestTopology.routed(20, 200));
            assertThat(takenAfter(engine, Instant.now()).flows()).hasSize(20);

            engine.apply(engine.config().toBuilder()
                    .rule(FirewallRule.of(1, "192.0.2.1/32", "any", 0, Verdict.DROP)).build());
            assertThat(takenAfter(engine, Instant.now()).flows()).hasSize(20)
                    .allSatisfy(f -> assertThat(f.action()).isEqualTo("stale (revalidated on next hit)"));
            engine.flushFlowCaches();
            assertThat(takenAfter(engine, Instant.now()).flows()).isEmpty();
        }
    }

    /** The first snapshots all taken after {@code instant}: each worker passes every 500 ms. */
    private static TopFlows takenAfter(Engine engine, Instant instant) {
        Await.until("snapshots taken after " + instant, () -> {
            TopFlows top = engine.topFlows();
            return top.takenAt() != null && top.takenAt().isAfter(instant);
        }, Duration.ofSeconds(10));
        return engine.topFlows();
    }
}
