package io.edp.engine.slowpath;

import io.edp.engine.packet.FlowKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;

/**
 * Prefix tracking for one address field of a {@link RuleSet}, as Open vSwitch's classifier tracks prefixes: the
 * rules' prefixes grouped into classes by (family, length), each class a hash set of its prefixes. One probe per
 * class says whether a packet's address can match that class at all, so a tuple none of whose rules' prefixes can
 * match is skipped without being hashed. Policies that mix many prefix lengths have many tuples but few classes. A
 * filter only: a class bit may be set where no rule of the tuple matches, never cleared where one does.
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
    /**
     * The sets' slots, (hi, lo) side by side so that a probe reads one cache line; a slot is empty when its hi is its
     * class's {@link #emptyHi}, a value none of the class's prefixes has.
     */
    private final long[] keys;
    private final long[] emptyHi;
    /** The classes of length 0 ("any", or a whole family): they hold every address, the rule's version decides. */
    private final long anyLength;
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
        emptyHi = new long[classes];
        long zeroLength = 0;
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
            zeroLength |= lengths[c] == 0 ? 1L << c : 0;
            int slots = lengths[c] == 0 ? 0 : Integer.highestOneBit(Math.max(1, sizes[c]) * 2 - 1) << 1;
            setOffset[c] = total;
            setMask[c] = slots - 1;
            total += slots;
        }
        anyLength = zeroLength;
        keys = new long[total * 2];
        ruleBits = new long[prefixes.length];
        var hisByClass = new ArrayList<HashSet<Long>>(); // a class's empty marker must be none of its prefixes' hi
        for (int c = 0; c < classes; c++) {
            hisByClass.add(new HashSet<>());
        }
        for (int i = 0; i < prefixes.length; i++) {
            ruleBits[i] = classes == 0 ? -1L : 1L << classOfRule[i];
            if (classes != 0) {
                hisByClass.get(classOfRule[i]).add(prefixes[i].hi());
            }
        }
        for (int c = 0; c < classes; c++) {
            long marker = 1; // no IPv4 prefix and no IPv6 prefix shorter than 64 has the low bit of hi set
            while (hisByClass.get(c).contains(marker)) {
                marker++;
            }
            emptyHi[c] = marker;
            for (int slot = 0; slot <= setMask[c] && lengths[c] != 0; slot++) {
                keys[2 * (setOffset[c] + slot)] = marker;
            }
        }
        for (int i = 0; i < prefixes.length; i++) {
            int c = classOfRule[i];
            if (classes != 0 && lengths[c] != 0) {
                add(c, prefixes[i].hi(), prefixes[i].lo());
            }
        }
    }

    private void add(int c, long hi, long lo) {
        for (int slot = (int) FlowKey.mix(hi * 31 + lo); ; slot++) {
            int at = 2 * (setOffset[c] + (slot & setMask[c]));
            if (keys[at] == emptyHi[c]) {
                keys[at] = hi;
                keys[at + 1] = lo;
                return;
            }
            if (keys[at] == hi && keys[at + 1] == lo) {
                return;
            }
        }
    }

    private boolean contains(int c, long hi, long lo) {
        long empty = emptyHi[c];
        for (int slot = (int) FlowKey.mix(hi * 31 + lo); ; slot++) {
            int at = 2 * (setOffset[c] + (slot & setMask[c]));
            long key = keys[at];
            if (key == empty) {
                return false;
            }
            if (key == hi && keys[at + 1] == lo) {
                return true;
            }
        }
    }

    /** Whether the field is tracked: false past {@value #MAX_CLASSES} classes. */
    boolean tracked() {
        return lengths.length > 0;
    }

    /** How many classes there are (0 when the field is not tracked). */
    int classes() {
        return lengths.length;
    }

    /** How many set probes {@link #matching} makes for all classes: one per class but the zero-length ones. */
    int probes() {
        return lengths.length - Long.bitCount(anyLength);
    }

    /** The class bit of rule {@code i}'s prefix (all bits when the field is not tracked). */
    long ruleBits(int i) {
        return ruleBits[i];
    }

    /**
     * Which of the classes {@code asked} (a bit per class) an address of IP version {@code version} can match: a bit
     * per class, all bits if the field is not tracked. One set probe per asked class of non-zero length.
     */
    long matching(long hi, long lo, int version, long asked) {
        if (lengths.length == 0) {
            return -1L;
        }
        long bits = asked & anyLength;
        for (long probe = asked & ~anyLength; probe != 0; probe &= probe - 1) {
            int c = Long.numberOfTrailingZeros(probe);
            if (c < lengths.length && versions[c] == version && contains(c, hi & maskHi[c], lo & maskLo[c])) {
                bits |= 1L << c;
            }
        }
        return bits;
    }
}
