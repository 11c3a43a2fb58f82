package io.edp.engine.fastpath;

import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.Action;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The busiest entries of one flow cache pass, in primitive arrays: a min-heap on packets of at most {@link #limit}
 * entries, each entry's key words and counters copied and its action a reference the worker's action table already
 * held (no object per entry, nothing allocated while selecting). Written by the owning worker over a pass of
 * several slices, between {@link #begin} and {@link #publish}; any thread may {@link #read} it at any time without
 * waiting: a sequence number (odd while written) tells a reader that the worker overwrote what it copied.
 */
public final class TopFlowSelection {

    private static final String STALE = "stale (revalidated on next hit)";

    private final int limit;
    private final long[] keys;
    private final long[] packets;
    private final long[] bytes;
    private final Action[] actions;
    /** Entry indices, a min-heap on their packets: the root is the entry the next busier one replaces. */
    private final int[] heap;
    private int size;
    private long takenNanos;
    private long passNanos;
    private volatile long sequence;
    /** The last copy a reader made and the sequence it was made at: later reads of that pass share it. */
    private volatile Copy lastCopy;

    private record Copy(long sequence, Snapshot snapshot) {
    }

    public TopFlowSelection(int limit) {
        this.limit = limit;
        this.keys = new long[limit * FlowCache.KEY_WORDS];
        this.packets = new long[limit];
        this.bytes = new long[limit];
        this.actions = new Action[limit];
        this.heap = new int[limit];
    }

    /**
     * What one {@link #tryRead} saw: the flows of a complete pass, when it began (every entry cached then and
     * still cached at its end was seen, its counters read during the pass) and the worker time it took.
     */
    public record Snapshot(long takenNanos, long passNanos, List<CachedFlow> flows) {
    }

    /** Starts (or restarts) a pass: copies taken until {@link #publish} are refused. Owning worker only. */
    public void begin() {
        if ((sequence & 1) == 0) {
            sequence = sequence + 1;
            VarHandle.storeStoreFence(); // the odd sequence is visible before any entry changes
        }
        size = 0;
    }

    /** Ends a pass that began at {@code takenNanos} (engine clock) and cost the worker {@code passNanos}. */
    public void publish(long takenNanos, long passNanos) {
        this.takenNanos = takenNanos;
        this.passNanos = passNanos;
        sequence = sequence + 1; // a volatile write: every entry written before it is visible to who reads it
    }

    /**
     * Moves a published pass's time to {@code takenNanos} without a new pass: the cache did not change since the
     * pass began, so a new one would select the same flows with the same counters. Owning worker only.
     */
    public void retake(long takenNanos) {
        sequence = sequence + 1;
        VarHandle.storeStoreFence(); // the odd sequence is visible before the time changes
        this.takenNanos = takenNanos;
        sequence = sequence + 1;
    }

    /** Whether an entry of {@code entryPackets} packets would enter the selection: a cheap test before the copy. */
    boolean wants(long entryPackets) {
        return size < limit || entryPackets > packets[heap[0]];
    }

    /** Takes a flow cache entry: its {@code key} ({@link FlowKey}'s words), counters and action (null when stale). */
    void offer(long[] key, long entryPackets, long entryBytes, Action action) {
        boolean replacing = size == limit;
        int entry = replacing ? heap[0] : size;
        System.arraycopy(key, 0, keys, entry * FlowCache.KEY_WORDS, FlowCache.KEY_WORDS);
        packets[entry] = entryPackets;
        bytes[entry] = entryBytes;
        actions[entry] = action;
        if (replacing) {
            siftDown(0);
        } else {
            heap[size] = entry;
            siftUp(size++);
        }
    }

    private void siftUp(int at) {
        int entry = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (packets[heap[parent]] <= packets[entry]) {
                break;
            }
            heap[at] = heap[parent];
            at = parent;
        }
        heap[at] = entry;
    }

    private void siftDown(int at) {
        int entry = heap[at];
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && packets[heap[child + 1]] < packets[heap[child]]) {
                child++;
            }
            if (packets[heap[child]] >= packets[entry]) {
                break;
            }
            heap[at] = heap[child];
            at = child;
        }
        heap[at] = entry;
    }

    /**
     * A copy of the pass this selection holds, or null when the worker was writing it before or while it was
     * copied (the caller then reads the selection published since). Any thread, never waits; the first read of a
     * pass copies and formats its entries, later ones answer that same copy (a pass is only rewritten after its
     * sequence number moved on).
     */
    public Snapshot tryRead() {
        long before = sequence;
        if ((before & 1) != 0) {
            return null;
        }
        Copy copied = lastCopy;
        if (copied != null && copied.sequence() == before) {
            return copied.snapshot();
        }
        int n = Math.min(size, limit); // a racy size is caught below; the bound keeps the copy in the arrays
        long[] k = Arrays.copyOf(keys, n * FlowCache.KEY_WORDS);
        long[] p = Arrays.copyOf(packets, n);
        long[] b = Arrays.copyOf(bytes, n);
        Action[] a = Arrays.copyOf(actions, n);
        long taken = takenNanos;
        long cost = passNanos;
        VarHandle.loadLoadFence(); // the copies are read before the sequence is checked again
        if (sequence != before) {
            return null;
        }
        List<CachedFlow> flows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int w = i * FlowCache.KEY_WORDS;
            flows.add(new CachedFlow(FlowKey.describe(k[w], k[w + 1], k[w + 2], k[w + 3], k[w + 4], k[w + 5]),
                    p[i], b[i], a[i] == null ? STALE : a[i].toString()));
        }
        Snapshot snapshot = new Snapshot(taken, cost, List.copyOf(flows));
        lastCopy = new Copy(before, snapshot);
        return snapshot;
    }
}
