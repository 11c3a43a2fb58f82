package io.edp.engine;

import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.NicDrivers;
import java.util.concurrent.CountDownLatch;

/**
 * Test driver of kind {@code stalling}: a port that never receives, whose {@link #rxBurst}, once {@link #stall()}
 * was called, blocks the polling worker until {@link #release()}, as a hung driver call would.
 */
final class StallingNic implements NicDriver {

    static final String KIND = "stalling";

    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean stalled;
    private volatile boolean holding;

    /** The engine's driver kinds: loopback, and this NIC for every port of kind {@code stalling}. */
    NicDrivers drivers() {
        return NicDrivers.withLoopback().with(KIND, (port, pool) -> this);
    }

    void stall() {
        stalled = true;
    }

    /** True while a worker is blocked in it. */
    boolean holding() {
        return holding;
    }

    void release() {
        stalled = false;
        released.countDown();
    }

    @Override
    public String name() {
        return "hung0";
    }

    @Override
    public int rxQueueCount() {
        return 1;
    }

    @Override
    public int txQueueCount() {
        return 1;
    }

    @Override
    public int rxBurst(int rxQueue, MbufCache cache, int[] mbufs, int max) {
        if (stalled) {
            holding = true;
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            holding = false;
        }
        return 0;
    }

    @Override
    public int txBurst(int txQueue, MbufCache cache, int[] mbufs, int count) {
        cache.freeBurst(mbufs, count);
        return count;
    }

    @Override
    public void close() {
    }
}
