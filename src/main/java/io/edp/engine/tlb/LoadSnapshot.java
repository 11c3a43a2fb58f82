package io.edp.engine.tlb;

import java.util.List;

/** Per-worker utilization and per-queue load over one TLB interval: the planner's whole input. */
public record LoadSnapshot(List<WorkerLoad> workers, List<QueueLoad> queues) {

    public LoadSnapshot {
        workers = List.copyOf(workers);
        queues = List.copyOf(queues);
    }

    public double peakUtilization() {
        double peak = 0;
        for (WorkerLoad worker : workers) {
            peak = Math.max(peak, worker.utilization());
        }
        return peak;
    }
}
