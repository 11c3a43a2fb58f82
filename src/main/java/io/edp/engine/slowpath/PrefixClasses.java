package io.edp.engine.slowpath;

import io.edp.engine.packet.FlowKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Prefix tracking for one address field of a {@link RuleSet}, as Open vSwitch's classifier tracks prefixes: the
 * rules' prefixes grouped into classes by (family, length). A lookup tells which classes hold a packet's address, so
 * a tuple none of whose rules' prefixes can hold it is skipped without being hashed. Policies that mix many prefix
 * lengths have many tuples but few classes. A filter only: a class bit may be set where no rule of the tuple
 * matches, never cleared where one does.
 *
 * <p>The lookup is a binary search on prefix lengths (Waldvogel et al., "Scalable high speed IP routing lookups",
 * SIGCOMM 1997): each family's lengths are levels, each level a hash set of the prefixes of that length and of
 * markers (the shortened prefixes of longer levels, at the levels the search passes through on its way to them).
 * An entry found sends the search to longer levels, none to shorter ones; each entry carries the classes its bits
 * hold, and the last entry found answers for every class: ⌈log₂(levels + 1)⌉ probes instead of one per class.
 */
final class PrefixClasses {

    /** Past 64 classes the field is not tracked: every class bit reads as set. */
    private static final int MAX_CLASSES = 64;
    /** An IPv6 entry's longs: hi, lo, its {@link #classSets} index; an IPv4 entry is one long (its address's). */
    private static final int V6_ENTRY = 3;

    private record Prefix(long hi, long lo) {
    }

    private final boolean tracked;
    private final int classes;
    /** The classes of length 0 ("any", or a whole family): they hold every address, the rule's version decides. */
    private final long anyLength;
    private final long[] ruleBits;
    // the levels, IPv4's then IPv6's, each family's in the order of their lengths
    private final int[] familyStart; // [0]: IPv4, [1]: IPv6, [2]: the end
    private final long[] maskHi;
    private final long[] maskLo;
    private final int[] setOffset;
    private final int[] setMask;
    /**
     * The levels' slots, an entry's fields side by side so that a probe reads one cache line. An IPv4 slot is one
     * long, the address in the upper half and its classes' {@link #classSets} index + 1 in the lower (0: empty); an
     * IPv6 slot is empty when its hi is its level's {@link #emptyHi}, a value none of the level's entries has.
     */
    private final long[] entries;
    private final long[] emptyHi;
    /** The distinct sets of classes the entries hold, each entry's by index: few, and shared. */
    private final long[] classSets;

    /** The classes of the rules' prefixes of one field: {@code prefixes[i]} is rule i's. */
    PrefixClasses(Cidr[] prefixes) {
        var classByShape = new LinkedHashMap<Long, Integer>(); // (version, length) -> class, in order of first use
        int[] classOfRule = new int[prefixes.length];
        for (int i = 0; i < prefixes.length; i++) {
            Cidr p = prefixes[i];
            classOfRule[i] = classByShape.computeIfAbsent((long) p.version() << 8 | p.length(),
                    key -> classByShape.size());
        }
        tracked = classByShape.size() <= MAX_CLASSES;
        classes = tracked ? classByShape.size() : 0;
        ruleBits = new long[prefixes.length];
        long zeroLength = 0;
        var classesByFamily = List.of(new ArrayList<Long>(), new ArrayList<Long>()); // length << 8 | class
        for (var shape : classByShape.entrySet()) {
            int version = (int) (shape.getKey() >>> 8);
            int length = (int) (shape.getKey() & 0xFF);
            if (length == 0) {
                zeroLength |= 1L << shape.getValue();
            } else {
                classesByFamily.get(version == 4 ? 0 : 1).add((long) length << 8 | shape.getValue());
            }
        }
        anyLength = tracked ? zeroLength : -1L;
        for (int i = 0; i < prefixes.length; i++) {
            ruleBits[i] = tracked ? 1L << classOfRule[i] : -1L;
        }
        List<Long> levels = new ArrayList<>(); // length << 8 | class, IPv4's by length, then IPv6's
        familyStart = new int[3];
        for (int f = 0; f < 2 && tracked; f++) {
            classesByFamily.get(f).sort(null);
            levels.addAll(classesByFamily.get(f));
            familyStart[f + 1] = levels.size();
        }
        familyStart[2] = levels.size();
        int levelCount = levels.size();
        int[] levelOfClass = new int[classByShape.size()];
        var members = new ArrayList<HashSet<Prefix>>(); // each level's class's own prefixes
        var levelEntries = new ArrayList<LinkedHashSet<Prefix>>(); // and the markers
        maskHi = new long[levelCount];
        maskLo = new long[levelCount];
        for (int k = 0; k < levelCount; k++) {
            int length = (int) (levels.get(k) >>> 8);
            levelOfClass[(int) (levels.get(k) & 0xFF)] = k;
            maskHi[k] = Cidr.maskHi(length);
            maskLo[k] = Cidr.maskLo(length);
            members.add(new HashSet<>());
            levelEntries.add(new LinkedHashSet<>());
        }
        for (int i = 0; i < prefixes.length && levelCount > 0; i++) {
            if (prefixes[i].length() == 0) {
                continue;
            }
            int level = levelOfClass[classOfRule[i]];
            var prefix = new Prefix(prefixes[i].hi(), prefixes[i].lo());
            members.get(level).add(prefix);
            levelEntries.get(level).add(prefix);
            int family = level < familyStart[1] ? 0 : 1;
            int low = familyStart[family];
            int high = familyStart[family + 1] - 1;
            while (low <= high) { // the search's path to the prefix's level: a marker wherever it must go longer
                int mid = (low + high) >>> 1;
                if (mid < level) {
                    levelEntries.get(mid).add(new Prefix(prefix.hi() & maskHi[mid], prefix.lo() & maskLo[mid]));
                    low = mid + 1;
                } else if (mid > level) {
                    high = mid - 1;
                } else {
                    break;
                }
            }
        }
        setOffset = new int[levelCount];
        setMask = new int[levelCount];
        emptyHi = new long[levelCount];
        int total = 0;
        for (int k = 0; k < levelCount; k++) {
            int slots = Integer.highestOneBit(Math.max(1, levelEntries.get(k).size()) * 2 - 1) << 1;
            setOffset[k] = total;
            setMask[k] = slots - 1;
            total += slots * (k < familyStart[1] ? 1 : V6_ENTRY);
        }
        entries = new long[total];
        var classSetIndex = new LinkedHashMap<Long, Integer>();
        for (int k = 0; k < levelCount; k++) {
            if (k >= familyStart[1]) {
                var his = new HashSet<Long>();
                levelEntries.get(k).forEach(entry -> his.add(entry.hi()));
                long marker = 1; // no IPv6 prefix shorter than 64 has the low bit of hi set
                while (his.contains(marker)) {
                    marker++;
                }
                emptyHi[k] = marker;
                for (int slot = 0; slot <= setMask[k]; slot++) {
                    entries[setOffset[k] + slot * V6_ENTRY] = marker;
                }
            }
            int familyFirst = k < familyStart[1] ? 0 : familyStart[1];
            for (var entry : levelEntries.get(k)) {
                long classes = 0; // the classes, up to this level's length, that hold the entry's bits
                for (int j = familyFirst; j <= k; j++) {
                    if (members.get(j).contains(new Prefix(entry.hi() & maskHi[j], entry.lo() & maskLo[j]))) {
                        classes |= 1L << (levels.get(j) & 0xFF);
                    }
                }
                add(k, entry, classSetIndex.computeIfAbsent(classes, key -> classSetIndex.size()));
            }
        }
        classSets = classSetIndex.keySet().stream().mapToLong(Long::longValue).toArray();
    }

    private void add(int level, Prefix entry, int classSet) {
        for (int slot = (int) FlowKey.mix(entry.hi() * 31 + entry.lo()); ; slot++) {
            if (level < familyStart[1]) {
                int at = setOffset[level] + (slot & setMask[level]);
                if (entries[at] == 0) {
                    entries[at] = entry.hi() | (classSet + 1);
                    return;
                }
            } else {
                int at = setOffset[level] + (slot & setMask[level]) * V6_ENTRY;
                if (entries[at] == emptyHi[level]) {
                    entries[at] = entry.hi();
                    entries[at + 1] = entry.lo();
                    entries[at + 2] = classSet;
                    return;
                }
            }
        }
    }

    /**
     * The {@link #classSets} index of the IPv4 entry {@code hi} (an address in the upper half) at {@code level}, or -1.
     */
    private int find4(int level, long hi) {
        for (int slot = (int) FlowKey.mix(hi * 31); ; slot++) {
            long entry = entries[setOffset[level] + (slot & setMask[level])];
            if (entry == 0) {
                return -1;
            }
            if ((entry & 0xFFFF_FFFF_0000_0000L) == hi) {
                return (int) entry - 1;
            }
        }
    }

    /** The {@link #classSets} index of the IPv6 entry (hi, lo) at {@code level}, or -1. */
    private int find6(int level, long hi, long lo) {
        long empty = emptyHi[level];
        for (int slot = (int) FlowKey.mix(hi * 31 + lo); ; slot++) {
            int at = setOffset[level] + (slot & setMask[level]) * V6_ENTRY;
            long key = entries[at];
            if (key == empty) {
                return -1;
            }
            if (key == hi && entries[at + 1] == lo) {
                return (int) entries[at + 2];
            }
        }
    }

    /** Whether the field is tracked: false past {@value #MAX_CLASSES} classes. */
    boolean tracked() {
        return tracked;
    }

    /** How many classes there are (0 when the field is not tracked). */
    int classes() {
        return classes;
    }

    /** The bits of the classes of length 0, which hold every address (all bits when the field is not tracked). */
    long anyLength() {
        return anyLength;
    }

    /** How many set probes {@link #matching} makes at most. */
    int probes() {
        int probes = 0;
        for (int f = 0; f < 2; f++) {
            int levels = familyStart[f + 1] - familyStart[f];
            probes = Math.max(probes, 32 - Integer.numberOfLeadingZeros(levels));
        }
        return probes;
    }

    /** The class bit of rule {@code i}'s prefix (all bits when the field is not tracked). */
    long ruleBits(int i) {
        return ruleBits[i];
    }

    /** The classes an address of IP version {@code version} can match: a bit per class, all bits if untracked. */
    long matching(long hi, long lo, int version) {
        if (!tracked || (version != 4 && version != 6)) {
            return anyLength;
        }
        long classes = 0;
        int low = familyStart[version == 4 ? 0 : 1];
        int high = familyStart[version == 4 ? 1 : 2] - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int found = version == 4 ? find4(mid, hi & maskHi[mid]) : find6(mid, hi & maskHi[mid], lo & maskLo[mid]);
            if (found >= 0) {
                classes = classSets[found];
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return classes | anyLength;
    }
}
