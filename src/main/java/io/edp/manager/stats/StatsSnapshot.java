package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;

import io.edp.manager.traffic.TrafficStatus;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "One event of the statistics stream: what the /stats endpoints answer, from one engine snapshot")
record StatsSnapshot(
        @Schema(description = "When the snapshot was taken") Instant takenAt,
        @Schema(description = "As /stats/threads answers") ThreadReport threads,
        @Schema(description = "As /stats/flow-cache answers") FlowCacheReport flowCache,
        @Schema(description = "As /stats/tlb answers") TlbReport tlb,
        @Schema(description = "As /stats/nic-queues answers") NicQueueReport nicQueues,
        @Schema(description = "The flows with most packets in the workers' last top-flows snapshots (one every "
                + "500 ms, see /stats/flows), at most " + StatsSnapshot.TOP_FLOWS)
        List<FlowEntry> topFlows,
        @Schema(description = "The traffic run on the host's engine; null when none was started")
        TrafficStatus traffic) {

    static final int TOP_FLOWS = 10;
}
