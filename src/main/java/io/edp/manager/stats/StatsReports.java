package io.edp.manager.stats;

import java.util.LinkedHashMap;

import io.edp.engine.EngineStats;

/** The reports of the statistics endpoints, built from one engine snapshot: the endpoints and the stream share them. */
final class StatsReports {

    private StatsReports() {
    }

    /** {@code generation}: the host's desired generation that the engine runs. */
    static FlowCacheReport flowCache(EngineStats stats, long generation) {
        var occupancy = new LinkedHashMap<String, Integer>();
        for (int bucket : FlowCacheCounters.BUCKETS) {
            occupancy.put(Integer.toString(bucket), 0);
        }
        var workers = stats.workers().stream().map(w -> new FlowCacheReport.WorkerFlowCache(w.id(), w.numaNode(),
                FlowCacheCounters.of(w.flowCache()))).toList();
        workers.forEach(w -> occupancy.merge(Integer.toString(w.counters().occupancyBucket()), 1, Integer::sum));
        return new FlowCacheReport(stats.takenAt(), generation, stats.generation(), stats.mode(),
                FlowCacheCounters.of(stats.flowCache()), occupancy, workers);
    }

    static ThreadReport threads(EngineStats stats) {
        return new ThreadReport(stats.takenAt(), stats.mode(), stats.workers().stream()
                .map(StatsReports::thread).toList());
    }

    private static ThreadReport.WorkerThread thread(EngineStats.WorkerStats w) {
        return new ThreadReport.WorkerThread(w.id(), w.numaNode(), w.health().state(), w.health().reason(),
                w.exceptions(), (int) (w.utilization() * 100), w.busyNanos(),
                w.wallNanos(), w.rxPackets(), w.txPackets(), w.ioChainPackets(), w.iterations(), w.queues());
    }

    static NicQueueReport nicQueues(EngineStats stats) {
        return new NicQueueReport(stats.takenAt(),
                stats.ports().stream().map(p -> new NicQueueReport.Port(p.id(), p.name(), p.numaNode(),
                        p.rxPackets(), p.rxBytes(), p.txPackets(), p.txBytes())).toList(),
                stats.queues().stream().map(q -> new NicQueueReport.Queue(q.port(), q.queue(), q.numaNode(),
                        q.worker(), q.packets(), q.bytes(), q.busyNanos())).toList());
    }
}
