package io.edp.engine.numa;

import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/** A set of CPU numbers, written as Linux writes it in sysfs: {@code 0-3,8,10-11}. */
public record CpuSet(SortedSet<Integer> cpus) {

    public CpuSet {
        cpus = Collections.unmodifiableSortedSet(new TreeSet<>(cpus));
        for (int cpu : cpus) {
            if (cpu < 0) {
                throw new IllegalArgumentException("negative CPU number " + cpu);
            }
        }
    }

    public static CpuSet of(Integer... cpus) {
        return new CpuSet(new TreeSet<>(List.of(cpus)));
    }

    /** Parses a sysfs cpulist such as {@code 0-3,8}; an empty string is the empty set. */
    public static CpuSet parse(String cpulist) {
        SortedSet<Integer> cpus = new TreeSet<>();
        for (String range : cpulist.strip().split(",")) {
            if (range.isEmpty()) {
                continue;
            }
            int dash = range.indexOf('-');
            int first = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
            int last = dash < 0 ? first : Integer.parseInt(range.substring(dash + 1));
            for (int cpu = first; cpu <= last; cpu++) {
                cpus.add(cpu);
            }
        }
        return new CpuSet(cpus);
    }

    public boolean isEmpty() {
        return cpus.isEmpty();
    }

    @Override
    public String toString() {
        StringBuilder list = new StringBuilder();
        Integer start = null;
        Integer previous = null;
        for (int cpu : cpus) {
            if (previous == null || cpu != previous + 1) {
                appendRange(list, start, previous);
                start = cpu;
            }
            previous = cpu;
        }
        appendRange(list, start, previous);
        return list.toString();
    }

    private static void appendRange(StringBuilder list, Integer first, Integer last) {
        if (first == null) {
            return;
        }
        list.append(list.isEmpty() ? "" : ",").append(first);
        if (!first.equals(last)) {
            list.append('-').append(last);
        }
    }
}
