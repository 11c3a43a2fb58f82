package io.edp.engine;

import io.edp.engine.fastpath.CachedFlow;
import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.fastpath.TopFlowSelection;
import io.edp.engine.metrics.Counters;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.packet.DropReason;
import io.edp.engine.reject.RejectReplies;
import io.edp.engine.reject.RouterReplies;
import io.edp.engine.worker.Flood;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.time.Clock;
import io.edp.engine.tlb.TlbStats;
import io.edp.engine.verifier.FlowVerifier;
import io.edp.engine.verifier.Mismatch;
import io.edp.engine.verifier.MismatchLog;
import io.edp.engine.worker.Generation;
import io.edp.engine.worker.RxQueue;
import io.edp.engine.worker.Worker;
import io.edp.engine.worker.WorkerHealth;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads an engine's counters into {@link EngineStats} (any thread: per-worker counters are plain longs read
 * racily, each a value the worker wrote) and its workers' top-flows snapshots into {@link TopFlows} (copied on
 * the caller's thread: a reader never makes a worker wait or work).
 */
final class EngineStatsCollector {

    private final Clock clock;
    private final Worker[] workers;
    private final WorkerGroup group;
    private final PortSet ports;
    private final ConnectionTable connections;
    /** The last {@link #topFlows} and the worker snapshots it was made of: while they are the same, it is too. */
    private volatile TopFlowsCopy lastTopFlows;

    private record TopFlowsCopy(TopFlowSelection.Snapshot[] sources, TopFlows topFlows) {
    }

    EngineStatsCollector(Clock clock, Worker[] workers, WorkerGroup group, PortSet ports,
            ConnectionTable connections) {
        this.clock = clock;
        this.workers = workers;
        this.group = group;
        this.ports = ports;
        this.connections = connections;
    }

    /** A snapshot of every counter of an engine running {@code g} under {@code c}. */
    EngineStats stats(Generation g, EngineConfig c, TlbStats tlb) {
        long now = clock.nanoTime();
        List<EngineStats.WorkerStats> workerStats = new ArrayList<>();
        EngineStats.FlowCacheStats totalCache = new EngineStats.FlowCacheStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        List<Mismatch> mismatches = new ArrayList<>();
        long[] totalDrops = new long[DropReason.count()];
        long[] rejectReplies = new long[RejectReplies.COUNTER_COUNT];
        long[] routerReplies = new long[RouterReplies.COUNTER_COUNT];
        long[] flood = new long[Flood.COUNTER_COUNT];
        Map<Integer, long[]> portTx = new TreeMap<>();
        List<WorkerHealth> health = group.health();
        for (Worker w : workers) {
            long[] counters = w.counters().snapshot();
            long[] f = w.flowCacheCounters().snapshot();
            long[] v = w.verifier().counters().snapshot();
            mismatches.addAll(w.verifier().mismatches().recent());
            long[] d = w.drops().snapshot();
            for (int i = 0; i < d.length; i++) {
                totalDrops[i] += d[i];
            }
            add(rejectReplies, w.rejectReplyCounters().snapshot());
            add(routerReplies, w.routerReplyCounters().snapshot());
            add(flood, w.floodCounters().snapshot());
            Counters portCounters = w.portCounters();
            for (Integer port : ports.drivers().keySet()) {
                long[] tx = portTx.computeIfAbsent(port, p -> new long[2]);
                tx[0] += portCounters.read(port * 2);
                tx[1] += portCounters.read(port * 2 + 1);
            }
            EngineStats.FlowCacheStats cache = new EngineStats.FlowCacheStats(f[FlowCache.HITS], f[FlowCache.MISSES],
                    f[FlowCache.SLOW_PATH], f[FlowCache.INSERTIONS], f[FlowCache.INSERTION_FAILURES],
                    f[FlowCache.EVICTIONS], f[FlowCache.EXPIRATIONS], f[FlowCache.REVALIDATIONS], f[FlowCache.ENTRIES],
                    g.fastPath() ? g.flowCacheCapacity() : 0, v[FlowVerifier.CHECKS], v[FlowVerifier.MISMATCHES]);
            totalCache = totalCache.plus(cache);
            List<String> owned = new ArrayList<>();
            for (RxQueue q : ports.queues()) {
                if (q.owner() == w.id()) {
                    owned.add(q.port() + "/" + q.queue());
                }
            }
            workerStats.add(new EngineStats.WorkerStats(w.id(), w.numaNode(), counters[Worker.RX_PACKETS],
                    counters[Worker.RX_BYTES], counters[Worker.TX_PACKETS], counters[Worker.TX_BYTES],
                    counters[Worker.BUSY_NANOS], now - w.startedNanos(), counters[Worker.ITERATIONS],
                    counters[Worker.EXCEPTIONS], counters[Worker.IOCHAIN_PACKETS], cache, dropMap(d),
                    List.copyOf(owned), health.get(w.id())));
        }
        List<EngineStats.QueueStats> queueStats = new ArrayList<>();
        Map<Integer, long[]> portRx = new TreeMap<>();
        for (RxQueue q : ports.queues()) {
            Counters qc = q.counters();
            long packets = qc.read(RxQueue.PACKETS);
            long bytes = qc.read(RxQueue.BYTES);
            queueStats.add(new EngineStats.QueueStats(q.port(), q.queue(), q.numaNode(), q.owner(), packets, bytes,
                    qc.read(RxQueue.BUSY_NANOS)));
            long[] rx = portRx.computeIfAbsent(q.port(), p -> new long[2]);
            rx[0] += packets;
            rx[1] += bytes;
        }
        List<EngineStats.PortStats> portStats = new ArrayList<>();
        for (PortConfig p : c.ports()) {
            long[] rx = portRx.getOrDefault(p.id(), new long[2]);
            long[] tx = portTx.getOrDefault(p.id(), new long[2]);
            portStats.add(new EngineStats.PortStats(p.id(), p.name(), p.numaNode(), rx[0], rx[1], tx[0], tx[1]));
        }
        return new EngineStats(Instant.now(), now, g.number(), c.mode(), List.copyOf(workerStats),
                List.copyOf(queueStats), List.copyOf(portStats), totalCache, dropMap(totalDrops), connections.size(),
                tlb, new EngineStats.RejectReplyStats(rejectReplies[RejectReplies.SENT],
                        rejectReplies[RejectReplies.RATE_LIMITED], rejectReplies[RejectReplies.NO_BUFFER]),
                MismatchLog.latest(mismatches),
                new EngineStats.FloodStats(flood[Flood.FLOODED], flood[Flood.COPIES], flood[Flood.NO_BUFFER],
                        flood[Flood.RATE_LIMITED]),
                new EngineStats.RouterReplyStats(routerReplies[RouterReplies.ARP_REPLIES],
                        routerReplies[RouterReplies.NEIGHBOR_ADVERTISEMENTS], routerReplies[RouterReplies.ECHO_REPLIES],
                        routerReplies[RouterReplies.TIME_EXCEEDED], routerReplies[RouterReplies.PACKET_TOO_BIG],
                        routerReplies[RouterReplies.RATE_LIMITED],
                        routerReplies[RouterReplies.NO_BUFFER], routerReplies[RouterReplies.UNANSWERED]));
    }

    private static void add(long[] sums, long[] values) {
        for (int i = 0; i < values.length; i++) {
            sums[i] += values[i];
        }
    }

    /**
     * Every worker's last top-flows snapshot, copied here; a flow a pass saw twice (moved by displacement while
     * the pass walked) is reported once. Readers of the same snapshots share one answer.
     */
    TopFlows topFlows() {
        TopFlowSelection.Snapshot[] snapshots = new TopFlowSelection.Snapshot[workers.length];
        for (int i = 0; i < workers.length; i++) {
            snapshots[i] = workers[i].topFlows();
        }
        TopFlowsCopy last = lastTopFlows;
        if (last != null && sameSnapshots(last.sources(), snapshots)) {
            return last.topFlows();
        }
        List<TopFlows.WorkerPass> passes = new ArrayList<>();
        List<FlowStats> flows = new ArrayList<>();
        Instant oldest = null;
        Instant now = Instant.now();
        long nowNanos = clock.nanoTime();
        for (int i = 0; i < workers.length; i++) {
            TopFlowSelection.Snapshot snapshot = snapshots[i];
            if (snapshot == null) {
                continue;
            }
            int worker = workers[i].id();
            Instant takenAt = now.minusNanos(nowNanos - snapshot.takenNanos());
            oldest = oldest == null || takenAt.isBefore(oldest) ? takenAt : oldest;
            Map<String, CachedFlow> distinct = new LinkedHashMap<>();
            for (CachedFlow f : snapshot.flows()) {
                distinct.merge(f.flow(), f, (a, b) -> a.packets() >= b.packets() ? a : b);
            }
            distinct.values().forEach(f -> flows.add(new FlowStats(worker, f.flow(), f.packets(), f.bytes(),
                    f.action())));
            passes.add(new TopFlows.WorkerPass(worker, takenAt, snapshot.passNanos(), distinct.size()));
        }
        TopFlows top = new TopFlows(oldest, Worker.TOP_FLOWS_PER_WORKER, List.copyOf(passes), List.copyOf(flows));
        lastTopFlows = new TopFlowsCopy(snapshots, top);
        return top;
    }

    private static boolean sameSnapshots(TopFlowSelection.Snapshot[] a, TopFlowSelection.Snapshot[] b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    private static Map<DropReason, Long> dropMap(long[] counts) {
        Map<DropReason, Long> map = new EnumMap<>(DropReason.class);
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] != 0) {
                map.put(DropReason.of(i), counts[i]);
            }
        }
        return Map.copyOf(map);
    }
}
