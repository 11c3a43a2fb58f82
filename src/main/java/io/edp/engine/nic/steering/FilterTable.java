package io.edp.engine.nic.steering;

import io.edp.engine.nic.VnicAddress;
import java.util.Arrays;
import java.util.Map;

/**
 * An immutable open-addressing table from a vNIC's (MAC, VLAN), packed as {@code mac << 12 | vlan}, to a filter
 * target, built by the control plane on every change and read by the receive path without locks (linear probing
 * over primitive arrays, at most half full).
 */
final class FilterTable {

    /** Target meaning "spread over the shared RSS pool". */
    static final int SHARED_RSS = -1;
    /** Lookup result when no filter matches. */
    static final int NO_FILTER = -2;

    private static final long EMPTY = -1L;

    private final long[] keys;
    private final int[] targets;
    private final int mask;

    FilterTable(Map<VnicAddress, Integer> filters) {
        int capacity = Integer.highestOneBit(Math.max(2, filters.size()) * 2) * 2;
        keys = new long[capacity];
        targets = new int[capacity];
        mask = capacity - 1;
        Arrays.fill(keys, EMPTY);
        for (Map.Entry<VnicAddress, Integer> filter : filters.entrySet()) {
            long key = key(filter.getKey().mac(), filter.getKey().vlan());
            int slot = slot(key);
            while (keys[slot] != EMPTY) {
                slot = (slot + 1) & mask;
            }
            keys[slot] = key;
            targets[slot] = filter.getValue();
        }
    }

    int lookup(long mac, int vlan) {
        long key = key(mac, vlan);
        for (int slot = slot(key); ; slot = (slot + 1) & mask) {
            long stored = keys[slot];
            if (stored == key) {
                return targets[slot];
            }
            if (stored == EMPTY) {
                return NO_FILTER;
            }
        }
    }

    private static long key(long mac, int vlan) {
        return (mac << 12) | vlan;
    }

    private int slot(long key) {
        long mixed = key * 0x9E3779B97F4A7C15L;
        return (int) (mixed >>> 40) & mask;
    }
}
