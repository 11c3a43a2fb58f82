package io.edp.engine.telemetry;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounded hand-off of flow records from one worker to the {@link IpfixExporter}: a single-producer,
 * single-consumer ring of fixed-size records in one {@code long[]}, so handing a record over allocates nothing
 * and never waits. A record the ring has no room for is counted ({@link #dropped}) and gone: the worker never
 * blocks on the exporter.
 * <pre>
 *  word  field
 *   0-5  the flow key words 0..5 of {@link io.edp.engine.packet.FlowKey}
 *   6    packets (packetDeltaCount)
 *   7    bytes (octetDeltaCount)
 *   8    first seen ms (32..63), last seen ms (0..31), on the engine clock
 *   9    rule id (32..63), egress port + 1, 0 for none (16..31), flowEndReason (8..15), OR of TCP flags (0..7)
 * </pre>
 */
public final class FlowRecords {

    public static final int WORDS = 10;
    public static final int DEFAULT_CAPACITY = 16_384;

    private final long[] ring;
    private final int mask;
    /** Records written (producer) and read (consumer); each side publishes its own with a release store. */
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong read = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    /** The producer's last look at {@link #read}: it rereads only when the ring seems full. */
    private long readSeen;

    public FlowRecords(int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("flow record ring capacity must be a power of two >= 2: " + capacity);
        }
        this.ring = new long[capacity * WORDS];
        this.mask = capacity - 1;
    }

    public int capacity() {
        return mask + 1;
    }

    /**
     * Producer: hands over the record of the flow whose key is {@code key[keyAt, keyAt + 6)}; a flow that counted
     * no packet has nothing to export. Returns false (and counts it) when the ring is full.
     */
    public boolean offer(long[] key, int keyAt, long packets, long bytes, int firstMillis, int lastMillis,
            int tcpFlags, int endReason, int ruleId, int outPort) {
        if (packets == 0) {
            return true;
        }
        long w = written.getPlain();
        if (w - readSeen > mask) {
            readSeen = read.getAcquire();
            if (w - readSeen > mask) {
                dropped.setRelease(dropped.getPlain() + 1);
                return false;
            }
        }
        int at = (int) (w & mask) * WORDS;
        System.arraycopy(key, keyAt, ring, at, 6);
        ring[at + 6] = packets;
        ring[at + 7] = bytes;
        ring[at + 8] = ((long) firstMillis << 32) | (lastMillis & 0xFFFF_FFFFL);
        ring[at + 9] = ((long) ruleId << 32) | ((long) ((outPort + 1) & 0xFFFF) << 16) | ((endReason & 0xFF) << 8)
                | (tcpFlags & 0xFF);
        written.setRelease(w + 1);
        return true;
    }

    /** Consumer: records waiting to be read. */
    public int available() {
        return (int) (written.getAcquire() - read.getPlain());
    }

    /** Consumer: the word offset in {@link #words()} of the {@code i}-th waiting record. */
    public int at(int i) {
        return (int) ((read.getPlain() + i) & mask) * WORDS;
    }

    /** Consumer: the ring's words, to read a record at {@link #at}. */
    public long[] words() {
        return ring;
    }

    /** Consumer: the first {@code n} waiting records were read; their room goes back to the producer. */
    public void release(int n) {
        read.setRelease(read.getPlain() + n);
    }

    /** Records that found the ring full, since it was made. */
    public long dropped() {
        return dropped.getAcquire();
    }

    public static int ruleId(long word9) {
        return (int) (word9 >>> 32);
    }

    /** The egress port of a record's word 9, -1 for none. */
    public static int outPort(long word9) {
        return ((int) (word9 >>> 16) & 0xFFFF) - 1;
    }

    public static int endReason(long word9) {
        return (int) (word9 >>> 8) & 0xFF;
    }

    public static int tcpFlags(long word9) {
        return (int) word9 & 0xFF;
    }
}
