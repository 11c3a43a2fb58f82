package io.edp.engine.worker;

import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.fastpath.TopFlowSelection;
import io.edp.engine.slowpath.ActionTable;

/**
 * A worker's top-flows snapshots, taken off the packet path: every {@link #INTERVAL_MILLIS} a pass walks the whole
 * flow cache, {@link #SLICE} slots per duty cycle (and as many per millisecond since the last slice, so a worker
 * that slept finishes in one), selecting the {@link #LIMIT} busiest entries into one of two
 * {@link TopFlowSelection}s; a finished pass is published and the next one writes the other. Readers copy the
 * published one on their own thread and never wait on the worker, who never runs anything for them. An entry
 * moved by cuckoo displacement during a pass may be seen twice or not at all: the snapshot is a sample of the
 * pass, not an atomic image of the cache. When nothing changed since the last pass began (no hit, install, removal
 * or export: {@link FlowCache#version}, the same generation), the next one is not walked: the last is published
 * again as taken now, so an idle worker's snapshots cost it nothing.
 */
final class TopFlowPasses {

    static final int INTERVAL_MILLIS = 500;
    static final int LIMIT = 1024;
    /** Slots per duty cycle: a slice costs a busy worker microseconds, not the milliseconds of a whole cache. */
    static final int SLICE = 1024;

    private final TopFlowSelection first = new TopFlowSelection(LIMIT);
    private final TopFlowSelection second = new TopFlowSelection(LIMIT);
    private volatile TopFlowSelection published;
    private TopFlowSelection building;
    /** The cache the running pass walks: a pass over a cache that was replaced starts again. */
    private FlowCache walking;
    private int cursor = -1;
    private int startedAtMillis;
    private long startedAtNanos;
    private int slicedAtMillis;
    private long passNanos;
    /** What the published pass saw at its start: the cache's version and the generation. */
    private long passVersion;
    private int passGeneration;

    /**
     * One slice of the running pass, or the start of one when the last began {@link #INTERVAL_MILLIS} ago (at
     * once for the first); {@code cache} null walks nothing. Worker thread; allocates nothing.
     */
    void step(FlowCache cache, ActionTable actions, int generation, int nowMillis, long nowNanos) {
        if (cursor < 0) {
            if (published != null && nowMillis - startedAtMillis < INTERVAL_MILLIS) {
                return;
            }
            long version = cache == null ? 0 : cache.version();
            startedAtMillis = nowMillis;
            if (published != null && cache == walking && version == passVersion && generation == passGeneration) {
                published.retake(nowNanos);
                return;
            }
            passVersion = version;
            passGeneration = generation;
            building = published == first ? second : first;
            startedAtNanos = nowNanos;
            slicedAtMillis = nowMillis;
            passNanos = 0;
            cursor = 0;
            walking = cache;
            building.begin();
        } else if (cache != walking) {
            walking = cache;
            passVersion = cache == null ? 0 : cache.version();
            cursor = 0;
            building.begin();
        }
        long start = System.nanoTime();
        int capacity = cache == null ? 0 : cache.capacity();
        long owed = Math.max(1, nowMillis - slicedAtMillis) * (long) SLICE;
        int end = (int) Math.min(capacity, cursor + owed);
        if (cache != null) {
            cache.offerBusiest(cursor, end, building, actions, generation);
        }
        slicedAtMillis = nowMillis;
        cursor = end;
        passNanos += System.nanoTime() - start;
        if (cursor == capacity) {
            building.publish(startedAtNanos, passNanos);
            published = building;
            cursor = -1;
        }
    }

    /** The last finished pass, copied on the caller's thread; null before the first. Any thread. */
    TopFlowSelection.Snapshot latest() {
        while (true) {
            TopFlowSelection current = published;
            if (current == null) {
                return null;
            }
            TopFlowSelection.Snapshot snapshot = current.tryRead();
            if (snapshot != null) {
                return snapshot;
            }
            // the worker began rewriting it: a newer pass was published meanwhile
        }
    }
}
