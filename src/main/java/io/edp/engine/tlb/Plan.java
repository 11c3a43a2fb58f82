package io.edp.engine.tlb;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A proposed assignment: the moves from the current one, and per-worker loads before and as predicted after
 * (the moved queues' loads shifted from old to new owner).
 *
 * @param numaCorrections moves that bring a queue back to a worker on its NIC's NUMA node
 */
public record Plan(List<QueueMove> moves, SortedMap<Integer, Double> loadsBefore,
                   SortedMap<Integer, Double> loadsAfter, int numaCorrections) {

    public Plan {
        moves = List.copyOf(moves);
        loadsBefore = Collections.unmodifiableSortedMap(new TreeMap<>(loadsBefore));
        loadsAfter = Collections.unmodifiableSortedMap(new TreeMap<>(loadsAfter));
    }

    public double peakBefore() {
        return peak(loadsBefore);
    }

    public double peakAfter() {
        return peak(loadsAfter);
    }

    /** Relative reduction of the peak, 0.25 meaning the busiest worker gets 25 % less busy. */
    public double improvement() {
        double before = peakBefore();
        return before <= 0 ? 0 : (before - peakAfter()) / before;
    }

    private static double peak(SortedMap<Integer, Double> loads) {
        double peak = 0;
        for (double load : loads.values()) {
            peak = Math.max(peak, load);
        }
        return peak;
    }
}
