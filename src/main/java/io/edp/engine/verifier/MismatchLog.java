package io.edp.engine.verifier;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The last {@link #CAPACITY} mismatches a worker's verifier found; any thread. */
public final class MismatchLog {

    public static final int CAPACITY = 16;

    private final Mismatch[] ring = new Mismatch[CAPACITY];
    private long added;

    synchronized void add(Mismatch mismatch) {
        ring[(int) (added++ % CAPACITY)] = mismatch;
    }

    /** The last {@link #CAPACITY} of several workers' mismatches, oldest first. */
    public static List<Mismatch> latest(List<Mismatch> mismatches) {
        List<Mismatch> sorted = new ArrayList<>(mismatches);
        sorted.sort(Comparator.comparing(Mismatch::at));
        return List.copyOf(sorted.subList(Math.max(0, sorted.size() - CAPACITY), sorted.size()));
    }

    public synchronized List<Mismatch> recent() {
        List<Mismatch> list = new ArrayList<>(CAPACITY);
        for (long i = Math.max(0, added - CAPACITY); i < added; i++) {
            list.add(ring[(int) (i % CAPACITY)]);
        }
        return List.copyOf(list);
    }
}
