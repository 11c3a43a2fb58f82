package io.edp.engine;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a condition with a deadline instead of sleeping a fixed time. */
public final class Await {

    private Await() {
    }

    public static void until(String what, BooleanSupplier condition, Duration timeout) {
        until(what, condition, timeout, () -> "");
    }

    public static void until(String what, BooleanSupplier condition, Duration timeout, Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + " " + state.get());
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
