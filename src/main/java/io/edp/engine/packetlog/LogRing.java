package io.edp.engine.packetlog;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bounded single-producer, single-consumer ring of fixed-width records of {@link #WORDS} longs: the hand-off
 * from a worker (producer) to the packet log's drainer (consumer). Offering never blocks and never allocates: a
 * full ring refuses the record.
 */
final class LogRing {

    static final int WORDS = 12;
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(LogRing.class, "head", long.class);
            TAIL = MethodHandles.lookup().findVarHandle(LogRing.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long[] records;
    private final int mask;
    /** Records taken: written by the consumer. */
    private long head;
    /** Records published: written by the producer. */
    private long tail;
    /** The producer's last view of {@link #head}, so a ring with room costs it no read of the consumer's line. */
    private long headSeen;

    LogRing(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("log ring capacity must be a power of two: " + capacity);
        }
        records = new long[capacity * WORDS];
        mask = capacity - 1;
    }

    static long bytes(int capacity) {
        return (long) capacity * WORDS * Long.BYTES;
    }

    /** The base of the slot the producer may fill next, or -1 when the ring is full. Producer. */
    int claim() {
        long t = tail;
        if (t - headSeen > mask) {
            headSeen = (long) HEAD.getAcquire(this);
            if (t - headSeen > mask) {
                return -1;
            }
        }
        return (int) (t & mask) * WORDS;
    }

    /** The producer's array, for filling the claimed slot. */
    long[] records() {
        return records;
    }

    /** Publishes the claimed slot. Producer. */
    void publish() {
        TAIL.setRelease(this, tail + 1);
    }

    /** Hands every published record to {@code reader} in order and frees it; returns how many. Consumer. */
    int drain(RecordReader reader) {
        long h = head;
        long t = (long) TAIL.getAcquire(this);
        for (long i = h; i < t; i++) {
            reader.read(records, (int) (i & mask) * WORDS);
        }
        HEAD.setRelease(this, t);
        return (int) (t - h);
    }

    @FunctionalInterface
    interface RecordReader {
        void read(long[] records, int base);
    }
}
