package io.edp.engine.mbuf;

/**
 * One thread's stash of free buffers in front of the shared {@link MbufPool}, as DPDK's per-lcore mempool
 * cache: allocation and free are array operations, and the pool's lock is taken once per {@code BULK} buffers.
 * Not thread-safe: each worker (and each generator) owns one.
 */
public final class MbufCache {

    private static final int BULK = 64;

    private final MbufPool pool;
    private final int[] free = new int[BULK * 2];
    private int count;

    public MbufCache(MbufPool pool) {
        this.pool = pool;
    }

    public MbufPool pool() {
        return pool;
    }

    /** A free buffer's index, reset to an empty frame, or -1 when the pool is exhausted. */
    public int allocate() {
        int index = allocateRaw();
        if (index >= 0) {
            Mbuf.reset(pool, index);
        }
        return index;
    }

    /**
     * A free buffer's index with its descriptor as its last user left it, or -1 when the pool is exhausted: for a
     * driver that writes the descriptor whole when a frame arrives ({@link Mbuf#received}), as DPDK's
     * {@code rte_mbuf_raw_alloc} serves a poll-mode driver's RX refill.
     */
    public int allocateRaw() {
        if (count == 0) {
            count = pool.takeBulk(free, 0, BULK);
            if (count == 0) {
                return -1;
            }
        }
        return free[--count];
    }

    public void free(int index) {
        if (count == free.length) {
            pool.returnBulk(free, count - BULK, BULK);
            count -= BULK;
        }
        free[count++] = index;
    }

    public void freeBurst(int[] indices, int count) {
        for (int i = 0; i < count; i++) {
            free(indices[i]);
        }
    }

    /** Gives every cached buffer back to the pool, e.g. when a worker stops. */
    public void flush() {
        pool.returnBulk(free, 0, count);
        count = 0;
    }
}
