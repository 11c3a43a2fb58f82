package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;

import io.edp.manager.api.PageResponse;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "One page of the busiest cached flows, from each worker's last snapshot pass")
record TopFlowsReport(
        @Schema(description = "When the oldest of the workers' snapshot passes began: every flow cached then "
                + "(and still at the pass's end) is in it; null before any worker finished a pass (one starts "
                + "every 500 ms)") Instant takenAt,
        @Schema(description = "Flows a worker's snapshot keeps: its busiest by packets", example = "1024")
        int perWorker,
        @Schema(description = "Each worker's last snapshot pass") List<WorkerSnapshot> snapshots,
        @Schema(description = "The flows of this page, in the requested order") List<FlowEntry> items,
        @Schema(description = "Where this page sits among the snapshots' flows (after the worker filter)")
        PageResponse.PageMetadata page) {

    @Schema(description = "A worker's last top-flows snapshot")
    record WorkerSnapshot(
            @Schema(description = "Worker number, from 0", example = "0") int worker,
            @Schema(description = "When its pass over the flow cache began") Instant takenAt,
            @Schema(description = "Worker time the pass cost, spread over its duty cycles in slices",
                    example = "1800000") long passNanos,
            @Schema(description = "Flows it holds", example = "100") int flows) {
    }
}
