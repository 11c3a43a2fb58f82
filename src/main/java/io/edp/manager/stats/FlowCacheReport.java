package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.edp.engine.Mode;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "Flow caches of a host's engine, per worker, at one instant")
record FlowCacheReport(
        @Schema(description = "When the snapshot was taken") Instant takenAt,
        @Schema(description = "The host's desired generation this engine runs: the number of a write's "
                + "EDP-Generation header and of realization's realizedGeneration", example = "7") long generation,
        @Schema(description = "How many table sets this engine has compiled since it started (each push that "
                + "changes what it runs compiles one; a rebuilt engine starts again at 1): the engine's own "
                + "counter, not a generation of the host", example = "3") int engineTablesVersion,
        @Schema(description = "The engine's data-path mode", example = "EDP_STANDARD") Mode mode,
        @Schema(description = "Summed over workers") FlowCacheCounters total,
        @Schema(description = "Workers per occupancy bucket (0, 25, 50, 75, 90, 95 %)",
                example = "{\"0\": 2, \"25\": 0, \"50\": 0, \"75\": 0, \"90\": 0, \"95\": 0}")
        Map<String, Integer> occupancy,
        @Schema(description = "Each worker's flow cache, by worker number") List<WorkerFlowCache> workers) {

    @Schema(description = "One worker's flow cache")
    record WorkerFlowCache(@Schema(description = "Worker number, from 0", example = "0") int worker,
                           @Schema(description = "NUMA node the worker runs on", example = "0") int numaNode,
                           @Schema(description = "Its counters") FlowCacheCounters counters) {
    }
}
