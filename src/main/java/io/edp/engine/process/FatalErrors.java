package io.edp.engine.process;

import java.io.PrintStream;

/**
 * Halts the process on an {@link OutOfMemoryError}. After one, any thread may have died half-way through its work
 * (a worker that polled nothing more, a reconciler that answered nothing) while the process looked alive; halting
 * lets a supervisor start a fresh one, as {@code -XX:+ExitOnOutOfMemoryError} would (a plain {@code java -jar}
 * carries no JVM flags). Threads that catch {@code Throwable} call {@link #haltOnOutOfMemory}; the rest reach
 * the default uncaught-exception handler {@link #installProcessHandler} sets.
 */
public final class FatalErrors {

    /** The exit status after an OutOfMemoryError. */
    public static final int OUT_OF_MEMORY_STATUS = 3;

    private static final FatalErrors PROCESS = new FatalErrors(status -> Runtime.getRuntime().halt(status),
            System.err);

    /** Ends the process; {@link Runtime#halt} in production, a recorder in tests. */
    @FunctionalInterface
    public interface Halter {
        void halt(int status);
    }

    private final Halter halter;
    private final PrintStream log;

    public FatalErrors(Halter halter, PrintStream log) {
        this.halter = halter;
        this.log = log;
    }

    /** Halts this process if {@code error} is, or was caused by, an OutOfMemoryError; returns otherwise. */
    public static void haltOnOutOfMemory(Throwable error) {
        PROCESS.check(error);
    }

    /** Makes every thread that dies of an OutOfMemoryError halt this process; other deaths go where they went. */
    public static void installProcessHandler() {
        Thread.setDefaultUncaughtExceptionHandler(PROCESS.handler(Thread.getDefaultUncaughtExceptionHandler()));
    }

    /** Halts if {@code error} is, or was caused by, an OutOfMemoryError: one line on the log, then the halter. */
    public void check(Throwable error) {
        if (!causedByOutOfMemory(error)) {
            return;
        }
        try {
            log.println("FATAL: OutOfMemoryError in thread " + Thread.currentThread().getName()
                    + ", halting with status " + OUT_OF_MEMORY_STATUS + " so that a supervisor restarts the process");
            log.flush();
        } finally {
            halter.halt(OUT_OF_MEMORY_STATUS); // even if the line could not be written
        }
    }

    /** An uncaught-exception handler that checks first, then hands the error to {@code next} (if any). */
    public Thread.UncaughtExceptionHandler handler(Thread.UncaughtExceptionHandler next) {
        return (thread, error) -> {
            check(error);
            if (next != null) {
                next.uncaughtException(thread, error);
            } else {
                error.printStackTrace();
            }
        };
    }

    private static boolean causedByOutOfMemory(Throwable error) {
        int depth = 0;
        for (Throwable t = error; t != null && depth < 16; t = t.getCause(), depth++) {
            if (t instanceof OutOfMemoryError) {
                return true;
            }
        }
        return false;
    }
}
