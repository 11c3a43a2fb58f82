package io.edp.engine.slowpath;

import io.edp.engine.packet.FlowKey;
import java.util.LinkedHashMap;

/**
 * Prefix tracking for one address field of a {@link RuleSet}, as Open vSwitch's classifier tracks prefixes: the
 * rules' prefixes grouped into classes by (family, length), each class a hash set of its prefixes. One probe per
 * class says which classes a packet's address can match at all, so a tuple none of whose rules' prefixes can match
 * is skipped without being hashed. Policies that mix many prefix lengths have many tuples but few classes. A filter
 * only: a class bit may be set where no rule of the tuple matches, never cleared where one does.
 */
final class PrefixClasses {

    /** Past 64 classes the field is not tracked: every class bit reads as set. */
    private static final int MAX_CLASSES = 64;

    private final int[] versions;
    private final int[] lengths;
    private final long[] maskHi;
    private final long[] maskLo;
    private final int[] setOffset;
    private final int[] setMask;
    private final long[] keysHi;
    private final long[] keysLo;
    private final boolean[] used;
    private final long[] ruleBits;

    /** The classes of the rules' prefixes of one field: {@code prefixes[i]} is rule i's. */
    PrefixClasses(Cidr[] prefixes) {
        var members = new LinkedHashMap<Long, Integer>(); // (version, length) -> class, in order of first use
        var sizes = new int[prefixes.length];
        int[] classOfRule = new int[prefixes.length];
        for (int i = 0; i < prefixes.length; i++) {
            Cidr p = prefixes[i];
            int c = members.computeIfAbsent((long) p.version() << 8 | p.length(), key -> members.size());
            classOfRule[i] = c;
            sizes[c]++;
        }
        int classes = members.size() > MAX_CLASSES ? 0 : members.size();
        versions = new int[classes];
        lengths = new int[classes];
        maskHi = new long[classes];
        maskLo = new long[classes];
        setOffset = new int[classes];
        setMask = new int[classes];
        int total = 0;
        for (var entry : members.entrySet()) {
            int c = entry.getValue();
            if (c >= classes) {
                break;
            }
            versions[c] = (int) (entry.getKey() >>> 8);
            lengths[c] = (int) (entry.getKey() & 0xFF);
            maskHi[c] = Cidr.maskHi(lengths[c]);
            maskLo[c] = Cidr.maskLo(lengths[c]);
            int slots = Integer.highestOneBit(Math.max(1, sizes[c]) * 2 - 1) << 1;
            setOffset[c] = total;
            setMask[c] = slots - 1;
            total += slots;
        }
        keysHi = new long[total];
        keysLo = new long[total];
        used = new boolean[total];
        ruleBits = new long[prefixes.length];
        for (int i = 0; i < prefixes.length; i++) {
            int c = classOfRule[i];
            ruleBits[i] = classes == 0 ? -1L : 1L << c;
            if (classes != 0 && lengths[c] != 0) {
                add(c, prefixes[i].hi(), prefixes[i].lo());
            }
        }
    }

    private void add(int c, long hi, long lo) {
        for (int slot = (int) FlowKey.mix(hi * 31 + lo); ; slot++) {
            int at = setOffset[c] + (slot & setMask[c]);
            if (!used[at]) {
                used[at] = true;
                keysHi[at] = hi;
                keysLo[at] = lo;
                return;
            }
            if (keysHi[at] == hi && keysLo[at] == lo) {
                return;
            }
        }
    }

    private boolean contains(int c, long hi, long lo) {
        for (int slot = (int) FlowKey.mix(hi * 31 + lo); ; slot++) {
            int at = setOffset[c] + (slot & setMask[c]);
            if (!used[at]) {
                return false;
            }
            if (keysHi[at] == hi && keysLo[at] == lo) {
                return true;
            }
        }
    }

    /** How many set probes {@link #matching} makes: one per class but the zero-length ones. */
    int probes() {
        int probes = 0;
        for (int length : lengths) {
            probes += length == 0 ? 0 : 1;
        }
        return probes;
    }

    /** The class bit of rule {@code i}'s prefix (all bits when the field is not tracked). */
    long ruleBits(int i) {
        return ruleBits[i];
    }

    /** The classes an address of IP version {@code version} can match: a bit per class, all bits if untracked. */
    long matching(long hi, long lo, int version) {
        if (lengths.length == 0) {
            return -1L;
        }
        long bits = 0;
        for (int c = 0; c < lengths.length; c++) {
            if (lengths[c] == 0) {
                bits |= 1L << c; // "any", or a whole family: the rule's version check decides
            } else if (versions[c] == version && contains(c, hi & maskHi[c], lo & maskLo[c])) {
                bits |= 1L << c;
            }
        }
        return bits;
    }
}
