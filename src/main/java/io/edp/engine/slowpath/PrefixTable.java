package io.edp.engine.slowpath;

import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Longest-prefix match over 128-bit keys (IPv4 in the top 32 bits): one open-addressing hash table per prefix
 * length present, probed from the longest length down. A thousand routes typically use a handful of lengths, so
 * a lookup is a few probes of primitive arrays. Immutable once built.
 */
public final class PrefixTable {

    private final int[] lengths;
    private final long[][] keyHi;
    private final long[][] keyLo;
    private final int[][] values;

    /** {@code prefixes.get(i)} maps to value {@code i}; a later duplicate prefix wins. */
    public PrefixTable(List<Cidr> prefixes) {
        TreeSet<Integer> present = new TreeSet<>();
        for (Cidr c : prefixes) {
            present.add(c.length());
        }
        lengths = present.descendingSet().stream().mapToInt(Integer::intValue).toArray();
        keyHi = new long[lengths.length][];
        keyLo = new long[lengths.length][];
        values = new int[lengths.length][];
        for (int l = 0; l < lengths.length; l++) {
            int count = 0;
            for (Cidr c : prefixes) {
                count += c.length() == lengths[l] ? 1 : 0;
            }
            int size = Integer.highestOneBit(count * 2) * 2;
            keyHi[l] = new long[size];
            keyLo[l] = new long[size];
            values[l] = new int[size];
            Arrays.fill(values[l], -1);
            for (int i = 0; i < prefixes.size(); i++) {
                Cidr c = prefixes.get(i);
                if (c.length() == lengths[l]) {
                    put(l, c.hi(), c.lo(), i);
                }
            }
        }
    }

    private void put(int l, long hi, long lo, int value) {
        int mask = values[l].length - 1;
        int slot = slot(hi, lo) & mask;
        while (values[l][slot] >= 0 && (keyHi[l][slot] != hi || keyLo[l][slot] != lo)) {
            slot = (slot + 1) & mask;
        }
        keyHi[l][slot] = hi;
        keyLo[l][slot] = lo;
        values[l][slot] = value;
    }

    /** The value of the longest prefix containing the address, or -1. */
    public int lookup(long hi, long lo) {
        for (int l = 0; l < lengths.length; l++) {
            long h = hi & Cidr.maskHi(lengths[l]);
            long o = lo & Cidr.maskLo(lengths[l]);
            int[] v = values[l];
            long[] kh = keyHi[l];
            long[] kl = keyLo[l];
            int mask = v.length - 1;
            int slot = slot(h, o) & mask;
            while (v[slot] >= 0) {
                if (kh[slot] == h && kl[slot] == o) {
                    return v[slot];
                }
                slot = (slot + 1) & mask;
            }
        }
        return -1;
    }

    private static int slot(long hi, long lo) {
        long x = hi * 0x9E3779B97F4A7C15L + lo * 0xC2B2AE3D27D4EB4FL;
        x = (x ^ (x >>> 32)) * 0xBF58476D1CE4E5B9L;
        return (int) (x >>> 32);
    }
}
