package io.edp.engine.worker;

import java.util.concurrent.locks.LockSupport;

/**
 * EDP_STANDARD and LEGACY: spin a little (traffic usually comes back quickly), then yield, then park with a
 * doubling timeout up to {@code maxParkNanos}, so an idle engine returns its cores to the VMs.
 * One instance per worker (it keeps the backoff state).
 */
public final class BackoffIdleStrategy implements IdleStrategy {

    private final int maxSpins;
    private final int maxYields;
    private final long minParkNanos;
    private final long maxParkNanos;
    private int spins;
    private int yields;
    private long parkNanos;

    public BackoffIdleStrategy(int maxSpins, int maxYields, long minParkNanos, long maxParkNanos) {
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNanos = minParkNanos;
        this.maxParkNanos = maxParkNanos;
        this.parkNanos = minParkNanos;
    }

    /**
     * The engine's default: 20 spins, 5 yields, then parks of 20 µs doubling to 1 ms — short enough that a
     * 4096-slot ring does not overflow while the worker sleeps at a few Mpps, long enough to cost ~0 CPU idle.
     */
    public static BackoffIdleStrategy standard() {
        return new BackoffIdleStrategy(20, 5, 20_000, 1_000_000);
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNanos);
            parkNanos = Math.min(parkNanos * 2, maxParkNanos);
        }
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNanos = minParkNanos;
    }
}
