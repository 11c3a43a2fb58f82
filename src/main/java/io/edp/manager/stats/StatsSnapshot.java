package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;

import io.edp.manager.traffic.TrafficStatus;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "One event of the statistics stream: what the /stats endpoints answer, from one engine snapshot")
record StatsSnapshot(
        @Schema(description = "When the snapshot was taken") Instant takenAt,
        ThreadReport threads,
        FlowCacheReport flowCache,
        TlbReport tlb,
        NicQueueReport nicQueues,
        @Schema(description = "The flows with most packets in the workers' last top-flows snapshots (one every "
                + "500 ms, see /stats/flows), at most " + StatsSnapshot.TOP_FLOWS)
        List<FlowEntry> topFlows,
        @Schema(description = "The traffic run on the host's engine; null when none was started")
        TrafficStatus traffic) {

    static final int TOP_FLOWS = 10;
}
