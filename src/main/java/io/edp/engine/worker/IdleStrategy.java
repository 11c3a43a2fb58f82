package io.edp.engine.worker;

/** What an empty duty cycle costs (Agrona's IdleStrategy): busy-spin for EDP_DEDICATED, backoff for the rest. */
public sealed interface IdleStrategy permits BusySpinIdleStrategy, BackoffIdleStrategy {

    /** Called after every cycle with the work it did; idles only when {@code workCount} is 0. */
    void idle(int workCount);

    /** True when an empty next cycle ends in a sleep: the worker arms its doorbell before that cycle. */
    boolean sleepsNext();

    /** Forgets accumulated backoff (after work arrives). */
    void reset();
}
