package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import io.edp.engine.tlb.TlbDecision;
import io.edp.engine.tlb.TlbStats;
import io.edp.engine.tlb.Trigger;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "The Thread Load Balancer of a host's engine: its settings, the loads of its last cycle and "
        + "its recent decisions (newest last)")
record TlbReport(
        @Schema(description = "When the snapshot was taken") Instant takenAt,
        @Schema(description = "Whether the TLB runs (the effective tlbEnabled)", example = "true") boolean enabled,
        @Schema(description = "Its period, milliseconds (tlbIntervalSeconds)", example = "4000") long intervalMillis,
        @Schema(description = "A worker at or over this utilization triggers a cycle, percent (tlbThresholdPercent)",
                example = "70") int thresholdPercent,
        @Schema(description = "A plan is applied only if it lowers the peak load by this much, percent "
                + "(tlbImprovementPercent)", example = "25") int improvementPercent,
        @Schema(description = "Utilization per worker in the last cycle, percent", example = "{\"0\": 93, \"1\": 12}")
        Map<Integer, Integer> workerLoadPercent,
        @Schema(description = "Its recent decisions, oldest first") List<Decision> decisions) {

    @Schema(description = "One triggered TLB cycle")
    record Decision(@Schema(description = "When the cycle ran") Instant at,
                    @Schema(description = "OVERLOAD: a worker was at or over the threshold; TOPOLOGY: queues or "
                            + "workers came or went", example = "OVERLOAD") Trigger trigger,
                    @Schema(description = "APPLIED: the moves were made; NO_BETTER_ASSIGNMENT; GAIN_TOO_SMALL: under "
                            + "the improvement threshold; TOO_SOON: the last moves were too recent, nothing moved",
                            example = "APPLIED") TlbDecision.Outcome outcome,
                    @Schema(description = "Utilization per worker before, percent") Map<Integer, Integer> loadsBefore,
                    @Schema(description = "Utilization per worker the plan predicts, percent")
                    Map<Integer, Integer> loadsPredicted,
                    @Schema(description = "The queues moved; empty unless APPLIED") List<Move> moves) {
    }

    @Schema(description = "An RX queue handed from one worker to another")
    record Move(@Schema(description = "Engine port number (as in /stats/nic-queues)", example = "0") int port,
                @Schema(description = "RX queue number on the port", example = "3") int rxQueue,
                @Schema(description = "The worker that polled it", example = "0") int fromWorker,
                @Schema(description = "The worker that polls it now", example = "1") int toWorker,
                @Schema(description = "The queue's load, percent of a worker", example = "40") int loadPercent) {
    }

    static TlbReport of(Instant takenAt, TlbStats stats) {
        var workers = new TreeMap<Integer, Integer>();
        if (stats.lastLoads() != null) {
            stats.lastLoads().workers().forEach(w -> workers.put(w.worker(), percent(w.utilization())));
        }
        var config = stats.config();
        return new TlbReport(takenAt, config.enabled(), config.interval().toMillis(),
                percent(config.threshold()), percent(config.improvementThreshold()), workers,
                stats.recentDecisions().stream().map(TlbReport::decision).toList());
    }

    private static Decision decision(TlbDecision d) {
        return new Decision(d.at(), d.trigger(), d.outcome(), percents(d.loadsBefore()),
                percents(d.loadsPredicted()), d.moves().stream().map(m -> new Move(m.queue().port(),
                        m.queue().rxQueue(), m.fromWorker(), m.toWorker(), percent(m.load()))).toList());
    }

    private static Map<Integer, Integer> percents(SortedMap<Integer, Double> loads) {
        var percents = new TreeMap<Integer, Integer>();
        loads.forEach((worker, load) -> percents.put(worker, percent(load)));
        return percents;
    }

    private static int percent(double share) {
        return (int) Math.round(share * 100);
    }
}
