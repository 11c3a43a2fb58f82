package io.edp.engine.nic.loopback;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.metrics.Counters;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The far end of a loopback port: counts what is transmitted and checks each flow's sequence numbers (from the
 * {@link TrafficGenerator} trailer) for loss and reordering, afresh with each run (a frame of another run than
 * its flow's last one starts the flow's count at that run's first frame). Per-flow state lives in primitive arrays indexed by
 * flow id; a flow is transmitted by one worker at a time (queue handoffs order the writers), and totals are
 * kept per TX queue so every counter has a single writer. With a flow capacity of 0 the sink only counts, so
 * a benchmark does not charge the wire's bookkeeping to the worker that transmits.
 */
public final class TrafficSink {

    public static final int PACKETS = 0;
    public static final int BYTES = 1;
    public static final int LOST = 2;
    public static final int REORDERED = 3;
    private static final int PER_QUEUE = 4;
    private static final int DIGEST_BYTES = 64;

    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private final MbufPool pool;
    private final int flowCapacity;
    private final long[] expectedSeq;
    private final Counters flowPackets;
    private final Counters flowDigest;
    private final Counters queues;

    /** Heap a sink of {@code flowCapacity} flows holds: per flow its expected sequence, packets and digest. */
    static long bytes(int flowCapacity) {
        return (long) flowCapacity * 3 * Long.BYTES;
    }

    TrafficSink(MbufPool pool, int flowCapacity, int txQueues) {
        this.pool = pool;
        this.flowCapacity = flowCapacity;
        this.expectedSeq = new long[flowCapacity];
        this.flowPackets = new Counters(flowCapacity);
        this.flowDigest = new Counters(flowCapacity);
        this.queues = new Counters(txQueues * PER_QUEUE);
    }

    /** Takes a transmitted burst on {@code txQueue}; the caller frees the buffers afterwards. */
    void receive(int txQueue, int[] mbufs, int count) {
        MemorySegment descriptors = pool.descriptors();
        MemorySegment rooms = pool.dataRooms();
        long[] q = queues.values();
        int at = txQueue * PER_QUEUE;
        long[] packets = flowPackets.values();
        long[] digests = flowDigest.values();
        for (int i = 0; i < count; i++) {
            int index = mbufs[i];
            long descriptor = pool.descriptorOffset(index);
            int length = descriptors.get(INT, descriptor + Mbuf.DATA_LENGTH_OFFSET);
            long frame = pool.dataRoomOffset(index) + descriptors.get(SHORT, descriptor + Mbuf.DATA_OFFSET_OFFSET);
            q[at + PACKETS]++;
            q[at + BYTES] += length;
            if (flowCapacity == 0 || length < TrafficGenerator.TRAILER_BYTES) {
                continue;
            }
            long trailer = frame + length - TrafficGenerator.TRAILER_BYTES;
            int flow = rooms.get(INT, trailer);
            long seq = rooms.get(LONG, trailer + 4);
            if (flow < 0 || flow >= flowCapacity) {
                continue;
            }
            long expected = expectedSeq[flow];
            if (seq >>> TrafficGenerator.RUN_SHIFT != expected >>> TrafficGenerator.RUN_SHIFT) {
                expected = seq >>> TrafficGenerator.RUN_SHIFT << TrafficGenerator.RUN_SHIFT;
            }
            if (seq == expected) {
                expectedSeq[flow] = seq + 1;
            } else if (seq > expected) {
                q[at + LOST] += seq - expected;
                expectedSeq[flow] = seq + 1;
            } else {
                q[at + REORDERED]++;
            }
            packets[flow]++;
            digests[flow] = digest(rooms, frame, Math.min(DIGEST_BYTES, length - TrafficGenerator.TRAILER_BYTES));
        }
    }

    /** A hash of the leading header bytes, which carry every rewrite (MACs, VLAN, TTL, checksum). */
    private static long digest(MemorySegment rooms, long frame, int bytes) {
        long h = bytes;
        int i = 0;
        for (; i + 8 <= bytes; i += 8) {
            h = (h ^ rooms.get(LONG, frame + i)) * 0x9E3779B97F4A7C15L;
        }
        for (; i < bytes; i++) {
            h = (h ^ rooms.get(ValueLayout.JAVA_BYTE, frame + i)) * 0xBF58476D1CE4E5B9L;
        }
        return h;
    }

    private long total(int counter) {
        long sum = 0;
        for (int at = counter; at < queues.size(); at += PER_QUEUE) {
            sum += queues.read(at);
        }
        return sum;
    }

    public long packets() {
        return total(PACKETS);
    }

    public long bytes() {
        return total(BYTES);
    }

    /** Sequence numbers skipped within flows (frames dropped on the way, or never sent). */
    public long lost() {
        return total(LOST);
    }

    /** Frames that arrived after a later frame of their flow. */
    public long reordered() {
        return total(REORDERED);
    }

    public long flowPackets(int flow) {
        return flowPackets.read(flow);
    }

    /** Digest of the last frame of {@code flow} received here, 0 if none. */
    public long flowDigest(int flow) {
        return flowDigest.read(flow);
    }
}
