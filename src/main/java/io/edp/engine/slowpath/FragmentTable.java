package io.edp.engine.slowpath;

/**
 * One worker's memory of the firewall's decision on each fragmented datagram's first fragment (the only one that
 * carries ports), which its later fragments take, as Linux conntrack and OVS {@code ct()} decide fragments, without
 * reassembly. A datagram is known by source, destination, identification and, for IPv4, protocol (IPv6 later
 * fragments name the header after the fragment header, not the transport protocol). Bounded: {@link #CAPACITY}
 * datagrams, each remembered for {@link #TIMEOUT_MILLIS} after its first fragment (Linux's {@code ipfrag_time});
 * when its probe window is full, a new datagram replaces the one nearest to its end. A later fragment of a
 * datagram not (or no longer) known is dropped: a NIC steers every fragment of a datagram to the same queue, so it
 * arrived before its first fragment, or too late. Owned by one worker: no locks, no allocation.
 * <pre>
 *  word field
 *  0-3  source (hi, lo), destination (hi, lo)
 *  4    identification(32) protocol(8) ipVersion(8) 0(15) 1(1); 0 marks a free slot
 *  5    the decision ({@link #decision})
 *  6    end of the record, ms(32) | 0(32)
 * </pre>
 */
public final class FragmentTable {

    public static final int CAPACITY = 1024;
    public static final int TIMEOUT_MILLIS = 30_000;
    /** {@link #decision} result for a datagram whose first fragment is unknown. */
    public static final long MISSING = -1;

    private static final int WORDS = 8;
    private static final int PROBES = 8;
    /** Heap the table holds. */
    public static final long BYTES = (long) CAPACITY * WORDS * Long.BYTES;

    private final long[] entries = new long[CAPACITY * WORDS];

    /** The word that names a datagram beside its addresses. */
    public static long datagram(int identification, int proto, int ipVersion) {
        int keyedProto = ipVersion == 4 ? proto : 0;
        return ((long) identification << 32) | ((long) keyedProto << 24) | ((long) ipVersion << 16) | 1;
    }

    /** Remembers {@code decision} (≥ 0) for the datagram's later fragments. */
    public void record(long srcHi, long srcLo, long dstHi, long dstLo, long datagram, long decision, int nowMillis) {
        int first = slot(srcHi, srcLo, dstHi, dstLo, datagram);
        int victim = -1;
        for (int i = 0; i < PROBES; i++) {
            int base = ((first + i) & (CAPACITY - 1)) * WORDS;
            if (matches(base, srcHi, srcLo, dstHi, dstLo, datagram)) {
                victim = base;
                break;
            }
            if (victim < 0 || remaining(base, nowMillis) < remaining(victim, nowMillis)) {
                victim = base;
            }
        }
        entries[victim] = srcHi;
        entries[victim + 1] = srcLo;
        entries[victim + 2] = dstHi;
        entries[victim + 3] = dstLo;
        entries[victim + 4] = datagram;
        entries[victim + 5] = decision;
        entries[victim + 6] = (long) (nowMillis + TIMEOUT_MILLIS) << 32;
    }

    /** The decision recorded for the datagram's first fragment, or {@link #MISSING}. */
    public long decision(long srcHi, long srcLo, long dstHi, long dstLo, long datagram, int nowMillis) {
        int first = slot(srcHi, srcLo, dstHi, dstLo, datagram);
        for (int i = 0; i < PROBES; i++) {
            int base = ((first + i) & (CAPACITY - 1)) * WORDS;
            if (matches(base, srcHi, srcLo, dstHi, dstLo, datagram)) {
                return remaining(base, nowMillis) > 0 ? entries[base + 5] : MISSING;
            }
        }
        return MISSING;
    }

    private boolean matches(int base, long srcHi, long srcLo, long dstHi, long dstLo, long datagram) {
        return entries[base + 4] == datagram && entries[base] == srcHi && entries[base + 1] == srcLo
                && entries[base + 2] == dstHi && entries[base + 3] == dstLo;
    }

    /** Milliseconds the record at {@code base} has left; a free slot has none. */
    private long remaining(int base, int nowMillis) {
        return entries[base + 4] == 0 ? Long.MIN_VALUE : (int) (entries[base + 6] >>> 32) - nowMillis;
    }

    private static int slot(long srcHi, long srcLo, long dstHi, long dstLo, long datagram) {
        return ConnectionTable.hash(srcHi, srcLo, dstHi, dstLo, datagram) & (CAPACITY - 1);
    }
}
