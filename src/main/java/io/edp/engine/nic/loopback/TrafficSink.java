package io.edp.engine.nic.loopback;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.metrics.Counters;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.foreign.ValueLayout;

/**
 * The far end of a loopback port: counts what is transmitted and checks each flow's sequence numbers (from the
 * {@link TrafficGenerator} trailer) for loss and reordering, afresh with each run (a frame of another run than
 * its flow's last one starts the flow's count at that run's first frame). Totals are kept per TX queue so every
 * counter has a single writer; a flow is transmitted by one worker at a time (queue handoffs order the writers).
 * With a flow capacity of 0 the sink only counts, so a benchmark does not charge the wire's bookkeeping to the
 * worker that transmits.
 * <p>
 * Per-flow state lives in pages of {@value #PAGE_FLOWS} flows, a page made when the first frame of one of its
 * flows arrives, as a kernel backs memory on first touch: an idle port (most of them: every VM's vNIC and every
 * simulated agent's NIC is one) holds only the page directory, and a run of a thousand flows one page, instead of
 * the whole capacity up front (6 MiB at the default 2^18 flows). A page is one {@code long[]}, per flow:
 * <pre>
 * | slot | field        | meaning                                               |
 * |------|--------------|-------------------------------------------------------|
 * | 0    | expected seq | the next sequence number of the flow's run            |
 * | 1    | packets      | frames of the flow received (read by any thread)      |
 * | 2    | digest       | hash of the last frame's leading bytes (read by any)  |
 * </pre>
 * Two workers may make the same page at once (their first frames of different flows of it): one installs its
 * page, the other drops its own and uses that one before writing anything.
 */
public final class TrafficSink {

    public static final int PACKETS = 0;
    public static final int BYTES = 1;
    public static final int LOST = 2;
    public static final int REORDERED = 3;
    private static final int PER_QUEUE = 4;
    private static final int DIGEST_BYTES = 64;

    /** Flows per page: 96 KiB, well under half a G1 region, so a page is never a humongous object. */
    static final int PAGE_FLOWS = 4096;
    private static final int PAGE_SHIFT = Integer.numberOfTrailingZeros(PAGE_FLOWS);
    private static final int SLOTS = 3;
    private static final int EXPECTED = 0;
    private static final int FLOW_PACKETS = 1;
    private static final int DIGEST = 2;

    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final VarHandle PAGE = MethodHandles.arrayElementVarHandle(long[][].class);
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final MbufPool pool;
    private final int flowCapacity;
    /** Page p holds flows [p * PAGE_FLOWS, (p + 1) * PAGE_FLOWS); null until one of them is received. */
    private final long[][] pages;
    private final Counters queues;

    /**
     * Heap a sink of {@code flowCapacity} flows holds at most, once frames of every page's flows have arrived:
     * per flow its expected sequence, packets and digest (the page directory's references are left out).
     */
    static long bytes(int flowCapacity) {
        return (long) pageCount(flowCapacity) * PAGE_FLOWS * SLOTS * Long.BYTES;
    }

    private static int pageCount(int flowCapacity) {
        return (int) (((long) flowCapacity + PAGE_FLOWS - 1) >>> PAGE_SHIFT);
    }

    TrafficSink(MbufPool pool, int flowCapacity, int txQueues) {
        this.pool = pool;
        this.flowCapacity = flowCapacity;
        this.pages = new long[pageCount(flowCapacity)][];
        this.queues = new Counters(txQueues * PER_QUEUE);
    }

    /** Takes a transmitted burst on {@code txQueue}; the caller frees the buffers afterwards. */
    void receive(int txQueue, int[] mbufs, int count) {
        MemorySegment descriptors = pool.descriptors();
        MemorySegment rooms = pool.dataRooms();
        long[] q = queues.values();
        int at = txQueue * PER_QUEUE;
        for (int i = 0; i < count; i++) {
            int index = mbufs[i];
            long descriptor = pool.descriptorAddress(index);
            int length = descriptors.get(INT, descriptor + Mbuf.DATA_LENGTH_OFFSET);
            long frame = pool.dataRoomAddress(index) + descriptors.get(SHORT, descriptor + Mbuf.DATA_OFFSET_OFFSET);
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
            long[] page = pages[flow >>> PAGE_SHIFT];
            if (page == null) {
                page = firstTouch(flow >>> PAGE_SHIFT);
            }
            int slot = (flow & PAGE_FLOWS - 1) * SLOTS;
            long expected = page[slot + EXPECTED];
            if (seq >>> TrafficGenerator.RUN_SHIFT != expected >>> TrafficGenerator.RUN_SHIFT) {
                expected = seq >>> TrafficGenerator.RUN_SHIFT << TrafficGenerator.RUN_SHIFT;
            }
            if (seq == expected) {
                page[slot + EXPECTED] = seq + 1;
            } else if (seq > expected) {
                q[at + LOST] += seq - expected;
                page[slot + EXPECTED] = seq + 1;
            } else {
                q[at + REORDERED]++;
            }
            page[slot + FLOW_PACKETS]++;
            page[slot + DIGEST] = digest(rooms, frame,
                    Math.min(DIGEST_BYTES, length - TrafficGenerator.TRAILER_BYTES));
        }
    }

    /**
     * Makes page {@code p} on its flows' first frame, or returns the one another worker installed meanwhile: the
     * packet path reads the directory plainly, so it may see null for a page just made; the exchange does not.
     */
    private long[] firstTouch(int p) {
        long[] made = new long[PAGE_FLOWS * SLOTS];
        long[] installed = (long[]) PAGE.compareAndExchange(pages, p, (long[]) null, made);
        return installed == null ? made : installed;
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
        return flowSlot(flow, FLOW_PACKETS);
    }

    /** Digest of the last frame of {@code flow} received here, 0 if none. */
    public long flowDigest(int flow) {
        return flowSlot(flow, DIGEST);
    }

    /** Pages made so far: how much of the flow capacity the traffic has touched. */
    int pagesMade() {
        int made = 0;
        for (int p = 0; p < pages.length; p++) {
            if (PAGE.getAcquire(pages, p) != null) {
                made++;
            }
        }
        return made;
    }

    /** A reader's view of one flow's slot (0 before the flow's first frame), as the worker last wrote it. */
    private long flowSlot(int flow, int field) {
        if (flow < 0 || flow >= flowCapacity) {
            return 0;
        }
        long[] page = (long[]) PAGE.getAcquire(pages, flow >>> PAGE_SHIFT);
        return page == null ? 0 : (long) SLOT.getOpaque(page, (flow & PAGE_FLOWS - 1) * SLOTS + field);
    }
}
