package io.edp.engine.time;

/** Where the engine reads time: {@link SystemClock} in production, {@link ManualClock} in tests. */
public interface Clock {

    /** Monotonic nanoseconds; only differences are meaningful. */
    long nanoTime();
}
