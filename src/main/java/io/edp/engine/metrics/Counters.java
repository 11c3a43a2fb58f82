package io.edp.engine.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A fixed set of counters written by exactly one thread with plain increments (no atomics on the packet path)
 * and read by any thread through opaque loads, which see the owner's latest stores without ordering costs.
 */
public final class Counters {

    private static final VarHandle ELEMENT = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] values;

    public Counters(int size) {
        this.values = new long[size];
    }

    /** The owner's array: index it directly on the packet path. */
    public long[] values() {
        return values;
    }

    /** A reader's view of one counter. */
    public long read(int index) {
        return (long) ELEMENT.getOpaque(values, index);
    }

    /** A reader's copy of all counters. */
    public long[] snapshot() {
        long[] copy = new long[values.length];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = read(i);
        }
        return copy;
    }

    public int size() {
        return values.length;
    }
}
