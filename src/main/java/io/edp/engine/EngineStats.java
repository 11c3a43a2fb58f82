package io.edp.engine;

import io.edp.engine.packet.DropReason;
import io.edp.engine.tlb.TlbStats;
import io.edp.engine.verifier.Mismatch;
import io.edp.engine.worker.WorkerHealth;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An immutable snapshot of an engine's counters. Counters are cumulative since the engine started; rates and
 * utilization come from two snapshots ({@link WorkerStats#utilizationSince}). {@code takenAtNanos} is the
 * engine clock's reading, the same timeline as the busy times. {@code tlb} is the engine's Thread Load Balancer:
 * its settings, the loads of its last cycle and its recent decisions. {@code rejectReplies} counts the replies to
 * packets of REJECT rules (those packets themselves are {@link DropReason#FIREWALL_REJECT} drops).
 * {@code verifierMismatches} are the live verifier's last mismatches over all workers, oldest first (at most
 * {@link io.edp.engine.verifier.MismatchLog#CAPACITY}). {@code flood} counts broadcast and multicast frames flooded
 * in their segment, {@code routerReplies} the packets the router sent itself (the frames it answered are
 * {@link DropReason#TO_ROUTER} drops, the ones whose TTL ran out {@link DropReason#TTL_EXCEEDED}).
 */
public record EngineStats(Instant takenAt, long takenAtNanos, int generation, Mode mode, List<WorkerStats> workers,
        List<QueueStats> queues, List<PortStats> ports, FlowCacheStats flowCache, Map<DropReason, Long> drops,
        long connections, TlbStats tlb, RejectReplyStats rejectReplies, List<Mismatch> verifierMismatches,
        FloodStats flood, RouterReplyStats routerReplies) {

    /** Dropped packets of every reason and worker. */
    public long dropped() {
        long n = 0;
        for (long v : drops.values()) {
            n += v;
        }
        return n;
    }

    public long rxPackets() {
        long n = 0;
        for (WorkerStats w : workers) {
            n += w.rxPackets();
        }
        return n;
    }

    public long txPackets() {
        long n = 0;
        for (WorkerStats w : workers) {
            n += w.txPackets();
        }
        return n;
    }

    /**
     * One worker. {@code busyNanos} is time spent in non-empty bursts; {@code wallNanos} time since it started.
     * {@code exceptions} counts the Throwables its duty cycle caught. {@code queues} lists the RX queues it polls
     * as "port/queue"; {@code health} whether it is running, stalled or dead, and why.
     */
    public record WorkerStats(int id, int numaNode, long rxPackets, long rxBytes, long txPackets, long txBytes,
            long busyNanos, long wallNanos, long iterations, long exceptions, long ioChainPackets,
            FlowCacheStats flowCache, Map<DropReason, Long> drops, List<String> queues, WorkerHealth health) {

        /** Busy share of wall time since the worker started, 0..1. */
        public double utilization() {
            return wallNanos == 0 ? 0 : Math.min(1.0, (double) busyNanos / wallNanos);
        }

        /** Busy share of wall time between {@code earlier} and this snapshot, 0..1. */
        public double utilizationSince(WorkerStats earlier) {
            long wall = wallNanos - earlier.wallNanos;
            return wall <= 0 ? 0 : Math.min(1.0, (double) (busyNanos - earlier.busyNanos) / wall);
        }
    }

    /** One RX queue: who polls it and the load it brought (packets, and busy time of its bursts). */
    public record QueueStats(int port, int queue, int numaNode, int worker, long packets, long bytes, long busyNanos) {
    }

    /** One port: received (through its RX queues) and transmitted (by every worker). */
    public record PortStats(int id, String name, int numaNode, long rxPackets, long rxBytes, long txPackets,
            long txBytes) {
    }

    /**
     * Replies to rejected packets over all workers: sent (and counted in the TX counters), held back by the
     * per-worker rate limit, or not sent for want of a free buffer.
     */
    public record RejectReplyStats(long sent, long rateLimited, long noBuffer) {
    }

    /**
     * Broadcast and multicast frames flooded over all workers, the copies made for their extra ports, copies not
     * made for want of a free buffer, and frames storm control dropped ({@link StormControl}: over a worker's rate).
     */
    public record FloodStats(long frames, long copies, long noBuffer, long rateLimited) {
    }

    /**
     * The router's own packets over all workers: ARP replies, neighbor advertisements, echo replies, ICMP time
     * exceeded, fragmentation needed / packet too big; those held back by the per-worker rate limit or for want of a
     * buffer; frames for the router it does not answer.
     */
    public record RouterReplyStats(long arpReplies, long neighborAdvertisements, long echoReplies, long timeExceeded,
            long packetTooBig, long rateLimited, long noBuffer, long unanswered) {

        /** Packets the router sent (each counted in the TX counters too). */
        public long sent() {
            return arpReplies + neighborAdvertisements + echoReplies + timeExceeded + packetTooBig;
        }
    }

    /**
     * Flow cache counters, for one worker or summed over all, with the live verifier's: fast-path hits it
     * re-evaluated and those the slow path would have decided differently.
     */
    public record FlowCacheStats(long hits, long misses, long slowPath, long insertions, long insertionFailures,
            long evictions, long expirations, long revalidations, long entries, long capacity, long verifierChecks,
            long verifierMismatches) {

        public double occupancy() {
            return capacity == 0 ? 0 : (double) entries / capacity;
        }

        /** Hits over every packet that met the cache or bypassed it. */
        public double hitRate() {
            long all = hits + slowPath;
            return all == 0 ? 0 : (double) hits / all;
        }

        FlowCacheStats plus(FlowCacheStats o) {
            return new FlowCacheStats(hits + o.hits, misses + o.misses, slowPath + o.slowPath,
                    insertions + o.insertions, insertionFailures + o.insertionFailures, evictions + o.evictions,
                    expirations + o.expirations, revalidations + o.revalidations, entries + o.entries,
                    capacity + o.capacity, verifierChecks + o.verifierChecks,
                    verifierMismatches + o.verifierMismatches);
        }
    }
}
