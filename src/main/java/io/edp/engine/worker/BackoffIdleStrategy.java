package io.edp.engine.worker;

import io.edp.engine.nic.Doorbell;

/**
 * EDP_STANDARD and LEGACY: spin a little (traffic usually comes back quickly), then yield, then sleep on the
 * worker's {@link Doorbell} with a doubling timeout. The doorbell ends a sleep when frames arrive or the control
 * side needs the worker, so the timeout only bounds how long a queue without a doorbell (a deaf one) goes unpolled:
 * {@code deafParkNanos} while the worker has one, {@code maxParkNanos} otherwise.
 * One instance per worker (it keeps the backoff state).
 */
public final class BackoffIdleStrategy implements IdleStrategy {

    private final Doorbell doorbell;
    private final int maxSpins;
    private final int maxYields;
    private final long minParkNanos;
    private final long deafParkNanos;
    private final long maxParkNanos;
    private int spins;
    private int yields;
    private long parkNanos;

    public BackoffIdleStrategy(Doorbell doorbell, int maxSpins, int maxYields, long minParkNanos, long deafParkNanos,
            long maxParkNanos) {
        this.doorbell = doorbell;
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNanos = minParkNanos;
        this.deafParkNanos = deafParkNanos;
        this.maxParkNanos = maxParkNanos;
        this.parkNanos = minParkNanos;
    }

    /**
     * The engine's default: 20 spins, 5 yields, then sleeps of 20 µs doubling to 1 ms with a deaf queue — short
     * enough that a 4096-slot ring does not overflow while the worker sleeps at a few Mpps — or to
     * {@link Worker#MAX_SLEEP} when every queue rings, so an idle worker wakes twice a second.
     */
    public static BackoffIdleStrategy standard(Doorbell doorbell) {
        return new BackoffIdleStrategy(doorbell, 20, 5, 20_000, 1_000_000, Worker.MAX_SLEEP.toNanos());
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
            doorbell.sleep(Math.min(parkNanos, doorbell.deaf() ? deafParkNanos : maxParkNanos));
            parkNanos = Math.min(parkNanos * 2, maxParkNanos);
        }
    }

    @Override
    public boolean sleepsNext() {
        return spins == maxSpins && yields == maxYields;
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNanos = minParkNanos;
    }
}
