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
        if (count == 0) {
            count = pool.takeBulk(free, 0, BULK);
            if (count == 0) {
                return -1;
            }
        }
        int index = free[--count];
        Mbuf.reset(pool, index);
        return index;
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
