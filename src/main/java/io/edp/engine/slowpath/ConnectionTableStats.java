package io.edp.engine.slowpath;

import java.util.Map;

/**
 * A connection table's size and use: its slots, the live connections in them (timed-out ones whose slots were not
 * yet reused are not counted) and those per state name ({@link ConnectionTable#stateName}).
 */
public record ConnectionTableStats(int capacity, long entries, Map<String, Long> states) {

    /** Live connections over slots, 0..1. */
    public double occupancy() {
        return capacity == 0 ? 0 : (double) entries / capacity;
    }
}
