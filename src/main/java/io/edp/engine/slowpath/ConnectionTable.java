package io.edp.engine.slowpath;

import io.edp.engine.packet.FlowKey;

/**
 * Connection tracking shared by every worker (the two directions of a connection arrive on different queues),
 * touched only by the slow path. The table is split into stripes, each an open-addressing array of 8-long
 * entries guarded by its own monitor, so a lookup locks one stripe, probes primitive arrays and allocates nothing.
 * <pre>
 *  word field
 *  0-3  address a (hi, lo), address b (hi, lo); a is the lower (address, port) end, so both directions match
 *  4    aPort(16) bPort(16) proto(8) ipVersion(8) 0(16); ipVersion 0 marks a free slot
 *  5    state(8) initiatorIsA(8) ruleId(32)
 *  6    expiry ms(32) policy generation(32)
 *  7    connection id: stripe(6) sequence(25)
 * </pre>
 * States are a loose TCP model (mid-stream pickup allowed): SYN_SENT, ESTABLISHED, FIN_WAIT, CLOSED, plus
 * ACTIVE for UDP/ICMP/other; each has its idle timeout. An entry evaluated under an older policy generation is
 * re-checked against the current rules, so a new DROP rule also cuts existing connections.
 */
public final class ConnectionTable {

    public static final int SYN_SENT = 1;
    public static final int ESTABLISHED = 2;
    public static final int FIN_WAIT = 3;
    public static final int CLOSED = 4;
    public static final int ACTIVE = 5;

    /** {@link #find} result: no live connection under the current policy; evaluate the rules. */
    public static final long NOT_FOUND = -1;
    /** {@link #insert} result: the stripe has no room. */
    public static final long FULL = -2;

    private static final int WORDS = 8;
    private static final int MAX_PROBES = 16;
    private static final int STRIPES = 64;

    private final Stripe[] stripes = new Stripe[STRIPES];
    private final int stripeMask;

    private static final class Stripe {
        final long[] entries;
        long nextId;
        int live;

        Stripe(int slots) {
            entries = new long[slots * WORDS];
        }
    }

    public ConnectionTable(int capacity) {
        if (capacity < STRIPES * 4 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("conntrack capacity must be a power of two >= " + STRIPES * 4
                    + ": " + capacity);
        }
        int perStripe = capacity / STRIPES;
        this.stripeMask = perStripe - 1;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe(perStripe);
        }
    }

    /**
     * Looks the packet's connection up and advances its state. When it lets the packet through without rule
     * evaluation, returns {@code ruleId << 32 | connectionId} (both ≥ 0), else {@link #NOT_FOUND}.
     */
    public long find(long srcHi, long srcLo, long dstHi, long dstLo, long l4, int tcpFlags, int nowMillis,
            int generation) {
        boolean srcIsA = srcIsA(srcHi, srcLo, dstHi, dstLo, l4);
        long ports = portsWord(l4, srcIsA);
        int hash = srcIsA ? hash(srcHi, srcLo, dstHi, dstLo, ports) : hash(dstHi, dstLo, srcHi, srcLo, ports);
        Stripe s = stripes[hash >>> 26];
        synchronized (s) {
            int base = probe(s, hash, srcIsA, srcHi, srcLo, dstHi, dstLo, ports, nowMillis);
            if (base < 0) {
                return NOT_FOUND;
            }
            long[] e = s.entries;
            int state = (int) (e[base + 5] >>> 56);
            if ((int) e[base + 6] != generation || (state == CLOSED && (tcpFlags & FlowKey.TCP_SYN) != 0)) {
                return NOT_FOUND;
            }
            boolean fromInitiator = ((e[base + 5] >>> 48) & 1) == (srcIsA ? 1 : 0);
            int next = nextState(state, FlowKey.proto(l4), tcpFlags, fromInitiator);
            e[base + 5] = (e[base + 5] & ~(0xFFL << 56)) | ((long) next << 56);
            e[base + 6] = ((long) (nowMillis + timeoutMillis(next)) << 32) | (generation & 0xFFFF_FFFFL);
            return ((long) (int) e[base + 5] << 32) | e[base + 7];
        }
    }

    /**
     * Records a connection the rules allowed (or refreshes one evaluated under an older generation); returns its
     * 31-bit id or {@link #FULL}.
     */
    public long insert(long srcHi, long srcLo, long dstHi, long dstLo, long l4, int tcpFlags, int nowMillis,
            int generation, int ruleId) {
        boolean srcIsA = srcIsA(srcHi, srcLo, dstHi, dstLo, l4);
        long ports = portsWord(l4, srcIsA);
        int hash = srcIsA ? hash(srcHi, srcLo, dstHi, dstLo, ports) : hash(dstHi, dstLo, srcHi, srcLo, ports);
        Stripe s = stripes[hash >>> 26];
        synchronized (s) {
            long[] e = s.entries;
            int base = probe(s, hash, srcIsA, srcHi, srcLo, dstHi, dstLo, ports, nowMillis);
            if (base < 0) {
                base = freeSlot(s, hash, nowMillis);
                if (base < 0) {
                    return FULL;
                }
                e[base] = srcIsA ? srcHi : dstHi;
                e[base + 1] = srcIsA ? srcLo : dstLo;
                e[base + 2] = srcIsA ? dstHi : srcHi;
                e[base + 3] = srcIsA ? dstLo : srcLo;
                e[base + 4] = ports;
                e[base + 7] = ((long) (hash >>> 26) << 25) | (s.nextId++ & 0x1FF_FFFF);
                s.live++;
            }
            int state = firstState(FlowKey.proto(l4), tcpFlags);
            e[base + 5] = ((long) state << 56) | ((srcIsA ? 1L : 0L) << 48) | (ruleId & 0xFFFF_FFFFL);
            e[base + 6] = ((long) (nowMillis + timeoutMillis(state)) << 32) | (generation & 0xFFFF_FFFFL);
            return e[base + 7];
        }
    }

    /** Forgets the packet's connection (a new policy dropped it). */
    public void remove(long srcHi, long srcLo, long dstHi, long dstLo, long l4, int nowMillis) {
        boolean srcIsA = srcIsA(srcHi, srcLo, dstHi, dstLo, l4);
        long ports = portsWord(l4, srcIsA);
        int hash = srcIsA ? hash(srcHi, srcLo, dstHi, dstLo, ports) : hash(dstHi, dstLo, srcHi, srcLo, ports);
        Stripe s = stripes[hash >>> 26];
        synchronized (s) {
            int base = probe(s, hash, srcIsA, srcHi, srcLo, dstHi, dstLo, ports, nowMillis);
            if (base >= 0) {
                // expire rather than free: later entries of the probe chain stay reachable
                s.entries[base + 5] = 0;
                s.entries[base + 6] = (long) nowMillis << 32;
                s.live--;
            }
        }
    }

    /** Live connections (approximate: expired entries count until their slot is reused). */
    public long size() {
        long n = 0;
        for (Stripe s : stripes) {
            synchronized (s) {
                n += s.live;
            }
        }
        return n;
    }

    /** The live entry of the connection (given as the packet's addresses and its direction), or -1. */
    private int probe(Stripe s, int hash, boolean srcIsA, long srcHi, long srcLo, long dstHi, long dstLo, long ports,
            int nowMillis) {
        long aHi = srcIsA ? srcHi : dstHi;
        long aLo = srcIsA ? srcLo : dstLo;
        long bHi = srcIsA ? dstHi : srcHi;
        long bLo = srcIsA ? dstLo : srcLo;
        long[] e = s.entries;
        int slot = hash & stripeMask;
        for (int i = 0; i < MAX_PROBES; i++) {
            int base = slot * WORDS;
            if (e[base + 4] == 0) {
                return -1;
            }
            if (e[base + 4] == ports && e[base] == aHi && e[base + 1] == aLo && e[base + 2] == bHi
                    && e[base + 3] == bLo) {
                return (int) (e[base + 6] >>> 32) - nowMillis > 0 ? base : -1;
            }
            slot = (slot + 1) & stripeMask;
        }
        return -1;
    }

    private int freeSlot(Stripe s, int hash, int nowMillis) {
        long[] e = s.entries;
        int slot = hash & stripeMask;
        for (int i = 0; i < MAX_PROBES; i++) {
            int base = slot * WORDS;
            if (e[base + 4] == 0) {
                return base;
            }
            if ((int) (e[base + 6] >>> 32) - nowMillis <= 0) {
                if ((e[base + 5] >>> 56) != 0) {
                    s.live--; // an idle-expired connection; removed ones were already uncounted
                }
                return base;
            }
            slot = (slot + 1) & stripeMask;
        }
        return -1;
    }

    private static boolean srcIsA(long srcHi, long srcLo, long dstHi, long dstLo, long l4) {
        if (srcHi != dstHi) {
            return Long.compareUnsigned(srcHi, dstHi) < 0;
        }
        if (srcLo != dstLo) {
            return Long.compareUnsigned(srcLo, dstLo) < 0;
        }
        return FlowKey.srcPort(l4) <= FlowKey.dstPort(l4);
    }

    private static long portsWord(long l4, boolean srcIsA) {
        int proto = FlowKey.proto(l4);
        int a = FlowKey.srcPort(l4);
        int b = FlowKey.dstPort(l4);
        if (proto == FlowKey.PROTO_ICMP || proto == FlowKey.PROTO_ICMPV6) {
            a = 0; // ICMP type differs by direction (echo / reply): track by addresses
            b = 0;
        } else if (!srcIsA) {
            int t = a;
            a = b;
            b = t;
        }
        return ((long) a << 48) | ((long) b << 32) | ((long) proto << 24) | ((long) FlowKey.ipVersion(l4) << 16);
    }

    private static int hash(long aHi, long aLo, long bHi, long bLo, long ports) {
        long h = (aHi * 0x9E3779B97F4A7C15L) ^ aLo;
        h = (h * 0xBF58476D1CE4E5B9L) ^ bHi;
        h = (h * 0x94D049BB133111EBL) ^ bLo;
        h = (h * 0x9E3779B97F4A7C15L) ^ ports;
        // a product only carries bits upwards: without the finalizer the ports (bits 32..63) never reached the
        // slot bits and flows differing only in ports shared one probe chain
        return (int) (FlowKey.mix(h) >>> 32);
    }

    private static int firstState(int proto, int tcpFlags) {
        if (proto != FlowKey.PROTO_TCP) {
            return ACTIVE;
        }
        if ((tcpFlags & FlowKey.TCP_RST) != 0) {
            return CLOSED;
        }
        if ((tcpFlags & FlowKey.TCP_FIN) != 0) {
            return FIN_WAIT;
        }
        return (tcpFlags & FlowKey.TCP_SYN) != 0 ? SYN_SENT : ESTABLISHED;
    }

    private static int nextState(int state, int proto, int tcpFlags, boolean fromInitiator) {
        if (proto != FlowKey.PROTO_TCP) {
            return ACTIVE;
        }
        if ((tcpFlags & FlowKey.TCP_RST) != 0) {
            return CLOSED;
        }
        if ((tcpFlags & FlowKey.TCP_FIN) != 0) {
            return state == FIN_WAIT ? CLOSED : FIN_WAIT;
        }
        if (state == SYN_SENT && (tcpFlags & FlowKey.TCP_ACK) != 0 && !fromInitiator) {
            return ESTABLISHED;
        }
        if (state == SYN_SENT && (tcpFlags & FlowKey.TCP_SYN) == 0 && fromInitiator) {
            return ESTABLISHED;
        }
        return state;
    }

    static int timeoutMillis(int state) {
        return switch (state) {
            case SYN_SENT -> 30_000;
            case ESTABLISHED -> 3_600_000;
            case FIN_WAIT -> 45_000;
            case CLOSED -> 20_000;
            default -> 60_000;
        };
    }
}
