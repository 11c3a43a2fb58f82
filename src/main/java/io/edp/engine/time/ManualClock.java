package io.edp.engine.time;

import java.time.Duration;

/** A clock that moves only when told to, so expiry and utilization are tested without sleeping. */
public final class ManualClock implements Clock {

    private volatile long nanos;

    public ManualClock(long startNanos) {
        this.nanos = startNanos;
    }

    @Override
    public long nanoTime() {
        return nanos;
    }

    public void advance(Duration by) {
        nanos += by.toNanos();
    }

    public void set(long nanos) {
        this.nanos = nanos;
    }
}
