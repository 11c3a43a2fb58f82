package io.edp.engine.time;

/** The production clock: {@link System#nanoTime()}. */
public enum SystemClock implements Clock {
    INSTANCE;

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }
}
