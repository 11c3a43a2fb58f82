package io.edp.engine.worker;

import io.edp.engine.process.FatalErrors;
import java.lang.System.Logger.Level;

/**
 * What a worker does with a {@link Throwable} its duty cycle caught: counts it, logs it without flooding (the first
 * with its stack trace, then at most one line a second saying how many followed), and lets the worker go on —
 * unless it is a {@link VirtualMachineError} (out of memory, stack overflow, an internal error of the JVM), after
 * which nothing the worker holds can be trusted: {@link #fatal} is the one place such an error is handled.
 * Owned by the worker's thread.
 */
final class WorkerFaults {

    private static final System.Logger LOG = System.getLogger(Worker.class.getName());
    private static final long LOG_INTERVAL_NANOS = 1_000_000_000L;

    private final int worker;
    private final long[] counters;
    private final int counter;
    private long nextLogNanos;
    private long unlogged;
    private boolean loggedOnce;

    /** Counts into {@code counters[counter]}. */
    WorkerFaults(int worker, long[] counters, int counter) {
        this.worker = worker;
        this.counters = counters;
        this.counter = counter;
    }

    /** Counts and logs {@code t}; returns when the worker can go on, throws what it cannot survive. */
    void caught(Throwable t) {
        counters[counter]++;
        if (t instanceof VirtualMachineError error) {
            fatal(error);
        }
        long now = System.nanoTime();
        if (!loggedOnce) {
            loggedOnce = true;
            nextLogNanos = now + LOG_INTERVAL_NANOS;
            LOG.log(Level.WARNING, "worker " + worker + " survived an exception (further ones are summarized "
                    + "once a second)", t);
        } else if (now - nextLogNanos >= 0) {
            nextLogNanos = now + LOG_INTERVAL_NANOS;
            LOG.log(Level.WARNING, "worker " + worker + " survived " + (unlogged + 1) + " more exceptions, the "
                    + "last: " + t);
            unlogged = 0;
        } else {
            unlogged++;
        }
    }

    /**
     * The worker cannot go on: an OutOfMemoryError halts the process ({@link FatalErrors}, so that a supervisor
     * restarts it); any other such error is logged and rethrown, which ends the worker's thread, and the engine
     * reports the worker DEAD with this error as the reason.
     */
    private void fatal(VirtualMachineError error) {
        FatalErrors.haltOnOutOfMemory(error);
        LOG.log(Level.ERROR, "worker " + worker + " stops: it cannot survive " + error, error);
        throw error;
    }
}
