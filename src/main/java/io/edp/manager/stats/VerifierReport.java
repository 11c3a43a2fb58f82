package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;

import io.edp.engine.EngineStats;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "The live verifier of a host's engine: its checks and mismatches, and the last mismatches "
        + "(oldest first) with both decisions")
record VerifierReport(
        @Schema(description = "When the snapshot was taken") Instant takenAt,
        @Schema(description = "Fast-path hits re-evaluated through the slow path, all workers", example = "9990")
        long checks,
        @Schema(description = "Checked hits whose cached action differs from the slow path's", example = "0")
        long mismatches,
        @Schema(description = "The last mismatches, oldest first") List<Mismatch> lastMismatches) {

    @Schema(description = "A fast-path hit the slow path would have decided differently")
    record Mismatch(@Schema(description = "When the hit was checked") Instant at,
                    @Schema(description = "The worker whose flow cache served it", example = "0") int worker,
                    @Schema(description = "The engine's table set the hit ran under (its engineTablesVersion in "
                            + "the flow-cache statistics)", example = "3") int engineTablesVersion,
                    @Schema(description = "The flow key",
                            example = "port 1 to 02:00:00:00:00:01 udp 10.0.0.1:40000 > 10.0.0.2:53") String flow,
                    @Schema(description = "The action the flow cache gave the packet", example = "drop(NO_ROUTE)")
                    String cached,
                    @Schema(description = "The action the slow path would have taken",
                            example = "output(port 2, rule 9)") String slowPath) {
    }

    static VerifierReport of(EngineStats stats) {
        return new VerifierReport(stats.takenAt(), stats.flowCache().verifierChecks(),
                stats.flowCache().verifierMismatches(), stats.verifierMismatches().stream()
                .map(m -> new Mismatch(m.at(), m.worker(), m.generation(), m.flow(), m.cached(), m.slowPath()))
                .toList());
    }
}
