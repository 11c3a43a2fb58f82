package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Verdict;
import io.edp.engine.telemetry.IpfixConfig;
import io.edp.engine.telemetry.IpfixStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Sampling one in N, end to end through a real nfcapd: each worker counts every N-th packet it handles (whichever
 * path counts it, the cache entry or the flow table), so the export holds exactly floor(packets / N) packets per
 * worker, each with its own bytes (every frame here has the same size), on 5-tuples that were sent, never more
 * than were sent on one; and the collector stores the sampled counts as they are: EDP announces no sampling
 * interval, so nfcapd scales nothing (docs/telemetry.md).
 */
class SampledExportTest {

    private static final int ONE_IN = 7;
    private static final int FRAME_BYTES = 128;

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(value = Mode.class, names = {"LEGACY", "EDP_STANDARD"})
    void theExportHoldsExactlyOneInNOfEachWorkersPacketsAndTheCollectorStoresThemUnscaled(Mode mode) {
        Map<String, List<Long>> sent = new TreeMap<>();
        try (Nfcapd nfcapd = new Nfcapd(temp.resolve("flows")); IpfixCapture capture = new IpfixCapture()) {
            EngineConfig config = TestTopology.config(mode)
                    .rule(FirewallRule.of(7, "any", "any", 0, Verdict.ALLOW))
                    .flowCache(new FlowCacheConfig(256, Duration.ofMillis(150), Duration.ofMillis(400)))
                    .ipfix(IpfixConfig.to(List.of(nfcapd.address(), capture.address()), 9)
                            .withTimeouts(250, 1_000).withSampling(ONE_IN))
                    .build();
            TrafficProfile traffic = TestTopology.routed(300, 21_000).withMix(70, 30, 25).withFrameBytes(FRAME_BYTES)
                    .withRate(30_000);
            long sampled = 0;
            Engine engine = Engine.start(config);
            try {
                Traffic.sendAll(engine, 0, traffic);
                FiveTuples.add(sent, traffic);
                for (EngineStats.WorkerStats w : engine.stats().workers()) {
                    sampled += w.rxPackets() / ONE_IN;
                }
            } finally {
                engine.close();
            }
            IpfixStats stats = engine.ipfixStats();
            assertThat(stats.recordsDropped() + stats.exportErrors()).isZero();
            capture.awaitMessages(stats.messagesSent() / 2);
            Map<String, List<Long>> exported = IpfixCapture.sums(capture.records());
            assertThat(exported.values().stream().mapToLong(v -> v.get(0)).sum())
                    .as("packets exported: one in %d of each worker's", ONE_IN).isEqualTo(sampled);
            assertThat(sent).as("5-tuples sent").containsKeys(exported.keySet().toArray(String[]::new));
            exported.forEach((tuple, counts) -> {
                assertThat(counts.get(1)).as("bytes of %s", tuple).isEqualTo(counts.get(0) * FRAME_BYTES);
                assertThat(counts.get(0)).as("packets of %s", tuple).isLessThanOrEqualTo(sent.get(tuple).get(0));
            });

            List<Map<String, String>> rows = nfcapd.stopAndRead(stats.recordsExported());
            assertThat(FlowExportTest.nfdumpSums(rows)).as("nfdump stores the sampled counts, unscaled")
                    .isEqualTo(exported);
        }
    }
}
