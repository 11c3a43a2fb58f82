package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Verdict;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * After warm-up the worker thread allocates nothing per packet: not on the fast path, not on the IOChain, not
 * when it answers (or, over its rate limit, declines to answer) packets of a REJECT rule, not when the live
 * verifier re-evaluates a fast-path hit.
 */
class ZeroAllocationTest {

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theWorkerAllocatesNoBytesPerPacketAfterWarmUp(Mode mode) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        // one destination of the sixteen is rejected: its UDP, TCP and ICMP flows get replies (100/s) or none
        // and the live verifier re-evaluates every fast-path hit
        EngineConfig config = TestTopology.config(mode)
                .rule(FirewallRule.of(1, "any", "10.128.3.0/24", 0, Verdict.REJECT))
                .flowCache(FlowCacheConfig.DEFAULT.withVerifierSampleRate(1))
                .build();
        try (Engine engine = Engine.start(config)) {
            TrafficGenerator generator = TestTopology.nic(engine, 0)
                    .startTraffic(TestTopology.routed(1_000, 0).withMix(60, 20, 0));
            Await.until("warm-up", () -> engine.stats().txPackets() > 200_000, Duration.ofSeconds(30));
            long worker = engine.workerThreadIds()[0];
            long before = threads.getThreadAllocatedBytes(worker);
            EngineStats start = engine.stats();
            long packets0 = start.rxPackets();
            Await.until("300,000 more packets", () -> engine.stats().rxPackets() > packets0 + 300_000,
                    Duration.ofSeconds(60));
            long allocated = threads.getThreadAllocatedBytes(worker) - before;
            EngineStats stats = engine.stats();
            long packets = stats.rxPackets() - packets0;
            generator.stop();

            assertThat(allocated).as("bytes allocated by the worker over %d packets", packets).isZero();
            if (mode != Mode.LEGACY) {
                assertThat(stats.flowCache().verifierChecks()).as("hits verified while measured")
                        .isGreaterThan(start.flowCache().verifierChecks() + 100_000);
                assertThat(stats.flowCache().verifierMismatches()).isZero();
            }
            assertThat(stats.rejectReplies().sent()).as("replies built while measured")
                    .isGreaterThan(start.rejectReplies().sent());
            assertThat(stats.rejectReplies().rateLimited()).as("replies declined while measured")
                    .isGreaterThan(start.rejectReplies().rateLimited());
        }
    }
}
