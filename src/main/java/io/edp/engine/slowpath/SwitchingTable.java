package io.edp.engine.slowpath;

import java.util.Arrays;

/** MAC + VLAN → port, open addressing over primitive arrays; immutable once built. */
public final class SwitchingTable {

    private final long[] keys;
    private final int[] ports;
    private final int mask;

    /** {@code macs[i]} on {@code vlans[i]} is reached through {@code portIds[i]}. */
    public SwitchingTable(long[] macs, int[] vlans, int[] portIds) {
        int size = Integer.highestOneBit(Math.max(4, macs.length * 2)) * 2;
        keys = new long[size];
        ports = new int[size];
        mask = size - 1;
        Arrays.fill(ports, -1);
        for (int i = 0; i < macs.length; i++) {
            long key = key(vlans[i], macs[i]);
            int slot = slot(key);
            while (ports[slot] >= 0 && keys[slot] != key) {
                slot = (slot + 1) & mask;
            }
            keys[slot] = key;
            ports[slot] = portIds[i];
        }
    }

    /** The port of {@code mac} on {@code vlan}, or -1. */
    public int lookup(int vlan, long mac) {
        long key = key(vlan, mac);
        int slot = slot(key);
        while (ports[slot] >= 0) {
            if (keys[slot] == key) {
                return ports[slot];
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    private static long key(int vlan, long mac) {
        return ((long) vlan << 48) | mac;
    }

    private int slot(long key) {
        long x = key * 0x9E3779B97F4A7C15L;
        return (int) (x >>> 32) & mask;
    }
}
