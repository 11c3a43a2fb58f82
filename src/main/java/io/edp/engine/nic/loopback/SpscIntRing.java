package io.edp.engine.nic.loopback;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A single-producer single-consumer ring of mbuf indices (Agrona / DPDK rte_ring style): no locks, no allocation.
 * Each slot carries an index and a {@code long} of metadata (the RX ring's frame length and RSS hash, as a NIC's
 * write-back descriptor does). The producer publishes with a release store of the tail, the consumer with a
 * release store of the head; each side caches the other's counter so a burst costs one acquire load. Head and
 * tail sit on their own cache lines. A producer may stage entries one at a time and publish them together, as a
 * NIC writes back a batch of descriptors and then moves the ring's tail once: the consumer then never reads a
 * slot line the producer is still writing, and the tail's line crosses cores once per batch, not per entry. A
 * consumer may read a batch in place ({@link #readable}, {@link #index}, {@link #meta}) and then give its slots
 * back at once ({@link #consume}), as DPDK's zero-copy ring dequeue does, instead of copying it out first.
 */
final class SpscIntRing {

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(SpscIntRing.class, "head", long.class);
            TAIL = lookup.findVarHandle(SpscIntRing.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int[] slots;
    private final long[] metas;
    private final int mask;

    // padding keeps each group of fields below on a line of its own
    private long p01, p02, p03, p04, p05, p06, p07;
    /** Read by the consumer at every poll that finds fewer entries than it asks for, written once a publish. */
    private long tail;
    private long p31, p32, p33, p34, p35, p36, p37;
    /**
     * Producer only: the next position {@link #stage} writes (entries in [tail, staged) are written, not
     * published). Not beside {@link #tail}: written once an entry, it took that line from a consumer polling an
     * emptied ring each time, and a generator barely slower than its worker became much slower.
     */
    private long staged;
    private long headCache;
    private long p11, p12, p13, p14, p15, p16, p17;
    private long head;
    private long tailCache;
    private long p21, p22, p23, p24, p25, p26, p27;

    SpscIntRing(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity must be a power of two: " + capacity);
        }
        slots = new int[capacity];
        metas = new long[capacity];
        mask = capacity - 1;
    }

    int capacity() {
        return slots.length;
    }

    /** Producer: writes one index with its metadata after those staged before; false when full. Not yet visible. */
    boolean stage(int value, long meta) {
        long t = staged;
        if (t - headCache >= slots.length) {
            headCache = (long) HEAD.getAcquire(this);
            if (t - headCache >= slots.length) {
                return false;
            }
        }
        slots[(int) t & mask] = value;
        metas[(int) t & mask] = meta;
        staged = t + 1;
        return true;
    }

    /**
     * Producer: makes every staged entry visible to the consumer, with one release store; false when none was
     * staged since the last publish.
     */
    boolean publish() {
        if (staged == tail) {
            return false;
        }
        TAIL.setRelease(this, staged);
        return true;
    }

    /** Producer: appends {@code values[0, count)} with one release store; the caller knows they fit. */
    void offerAll(int[] values, int count) {
        long t = tail;
        for (int i = 0; i < count; i++) {
            slots[(int) (t + i) & mask] = values[i];
        }
        staged = t + count;
        TAIL.setRelease(this, t + count);
    }

    /** Consumer: takes one index, or -1 when the ring is empty. */
    int poll() {
        long h = head;
        if (tailCache == h) {
            tailCache = (long) TAIL.getAcquire(this);
            if (tailCache == h) {
                return -1;
            }
        }
        int value = slots[(int) h & mask];
        HEAD.setRelease(this, h + 1);
        return value;
    }

    /**
     * Consumer: how many published entries, at most {@code max}, can be read in place with {@link #index} and
     * {@link #meta} (the first is 0) before {@link #consume} gives their slots back.
     */
    int readable(int max) {
        long available = tailCache - head;
        if (available < max) {
            tailCache = (long) TAIL.getAcquire(this);
            available = tailCache - head;
        }
        return (int) Math.min(available, max);
    }

    /** Consumer: the index of the {@code i}-th {@link #readable} entry. */
    int index(int i) {
        return slots[(int) (head + i) & mask];
    }

    /** Consumer: the metadata of the {@code i}-th {@link #readable} entry. */
    long meta(int i) {
        return metas[(int) (head + i) & mask];
    }

    /** Consumer: gives the first {@code n} {@link #readable} entries' slots back to the producer. */
    void consume(int n) {
        HEAD.setRelease(this, head + n);
    }
}
