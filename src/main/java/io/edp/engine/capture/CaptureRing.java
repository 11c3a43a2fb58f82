package io.edp.engine.capture;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker's frames for one capture: a bounded single-producer (the worker), single-consumer (the capture's
 * drainer) ring of fixed slots in primitive arrays, each a frame's first {@code snaplen} bytes with its length,
 * direction and time. {@link #offer} never waits and never allocates: a frame that finds the ring full is counted in
 * {@link #dropped()} and let go. A ring takes at most the frames its capture can write: once it has published that
 * many, the capture ends before it could write another, so later frames are neither kept nor counted as dropped.
 */
final class CaptureRing {

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle DROPPED;
    /** Set in a slot's length word when the port received the frame (rather than transmitted it). */
    private static final long INBOUND = 1L << 32;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(CaptureRing.class, "head", long.class);
            TAIL = lookup.findVarHandle(CaptureRing.class, "tail", long.class);
            DROPPED = lookup.findVarHandle(CaptureRing.class, "dropped", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int mask;
    private final int snaplen;
    /** Frames the capture can write (its packet limit): the most this ring ever needs to publish. */
    private final long limit;
    private final byte[] data;
    private final MemorySegment dataSegment;
    /** Per slot: the time (engine clock ns), then the frame's length on the wire, with {@link #INBOUND}. */
    private final long[] meta;
    /** Frames taken: written by the consumer. */
    private long head;
    /** Frames published: written by the producer. */
    private long tail;
    /** The producer's last view of {@link #head}: a ring with room costs it no read of the consumer's line. */
    private long headSeen;
    /** Frames that found the ring full: written by the producer, read (opaque) by anyone. */
    private long dropped;

    CaptureRing(int frames, int snaplen, long limit) {
        this.mask = frames - 1;
        this.snaplen = snaplen;
        this.limit = limit;
        this.data = new byte[frames * snaplen];
        this.dataSegment = MemorySegment.ofArray(data);
        this.meta = new long[frames * 2];
    }

    static long bytes(int frames, int snaplen) {
        return (long) frames * (snaplen + 2 * Long.BYTES);
    }

    /**
     * Copies the frame {@code s[off, off + length)} the port received ({@code inbound}) or transmitted at
     * {@code nanos} into the ring, or counts it dropped.
     */
    void offer(MemorySegment s, long off, int length, long nanos, boolean inbound) {
        long t = tail;
        if (t >= limit) {
            return; // the capture has all it can write from this worker: it ends at its limit before this frame
        }
        if (t - headSeen > mask) {
            headSeen = (long) HEAD.getAcquire(this);
            if (t - headSeen > mask) {
                DROPPED.setOpaque(this, dropped + 1);
                return;
            }
        }
        int slot = (int) (t & mask);
        MemorySegment.copy(s, ValueLayout.JAVA_BYTE, off, data, slot * snaplen, Math.min(length, snaplen));
        meta[2 * slot] = nanos;
        meta[2 * slot + 1] = inbound ? length | INBOUND : length;
        TAIL.setRelease(this, t + 1);
    }

    long dropped() {
        return (long) DROPPED.getOpaque(this);
    }

    /** Hands up to {@code max} published frames to {@code reader} in order and frees them; returns how many. */
    int drain(FrameReader reader, long max) {
        long h = head;
        long t = h + Math.min((long) TAIL.getAcquire(this) - h, max); // h + max may overflow
        for (long i = h; i < t; i++) {
            int slot = (int) (i & mask);
            long word = meta[2 * slot + 1];
            int length = (int) word;
            reader.read(dataSegment, (long) slot * snaplen, Math.min(length, snaplen), length, meta[2 * slot],
                    (word & INBOUND) != 0);
        }
        HEAD.setRelease(this, t);
        return (int) (t - h);
    }

    @FunctionalInterface
    interface FrameReader {
        void read(MemorySegment data, long offset, int capturedLength, int length, long nanos, boolean inbound);
    }
}
