package io.edp.engine.packetlog;

import io.edp.engine.metrics.Counters;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.reject.TokenBucket;

/**
 * One worker's side of the packet log: turns a connection's start or end into a record in its {@link LogRing}, under
 * the worker's rate limit. One thread at a time: its worker's (the slow path and the connection sweep call it), or for
 * the {@linkplain PacketLog#control() control writer} the engine's control path, serialized by the engine (cleared
 * connections). It never blocks and allocates nothing: a line over the rate limit is counted as suppressed, one that
 * finds the ring full as lost, and formatting happens on the drainer's thread ({@link PacketLog}).
 * <pre>
 *  word  record
 *  0     kind(8) reason(8) ipVersion(8) proto(8) tcpFlags(8) 0(24)
 *  1     engine-clock ms(32) | rule id(32)
 *  2     ingress port(32) | switched egress port, -1 when routed(32)
 *  3     length(32) | source port(16) | destination port(16)
 *  4-7   source hi, lo, destination hi, lo (the initiator's view for TERM)
 *  8-11  TERM: packets from / to the initiator, bytes from / to the initiator
 * </pre>
 */
public final class PacketLogWriter {

    public static final int PASS = 1;
    public static final int DROP = 2;
    public static final int REJECT = 3;
    public static final int TERM = 4;

    public static final int FIN = 1;
    public static final int RST = 2;
    public static final int TIMEOUT = 3;
    /** The rules changed and no longer allow the connection: it is forgotten. */
    public static final int REVOKED = 4;
    /** Someone cleared it from the table ({@code conntrack -D}, the API's DELETE of a host's connections). */
    public static final int CLEARED = 5;

    // counters
    public static final int QUEUED = 0;
    public static final int SUPPRESSED = 1;
    public static final int LOST = 2;
    public static final int COUNTER_COUNT = 3;

    static final int RING_CAPACITY = 2_048;

    private final LogRing ring = new LogRing(RING_CAPACITY);
    private final Counters counters = new Counters(COUNTER_COUNT);
    private volatile TokenBucket limit;

    PacketLogWriter(int linesPerSecond) {
        limit(linesPerSecond);
    }

    /** Heap one writer holds. */
    public static long bytes() {
        return LogRing.bytes(RING_CAPACITY);
    }

    /** A new rate limit; control thread (the worker picks it up with its next line). */
    void limit(int linesPerSecond) {
        limit = new TokenBucket(linesPerSecond, linesPerSecond);
    }

    LogRing ring() {
        return ring;
    }

    /** Lines queued, suppressed by the rate limit, lost to a full ring. */
    public Counters counters() {
        return counters;
    }

    /**
     * The first packet of a connection (PASS) or a packet a logged rule dropped (DROP, REJECT), as the packet's
     * addresses and its flow key's {@code l4} word.
     */
    public void opened(int kind, int ruleId, long srcHi, long srcLo, long dstHi, long dstLo, long l4, int outPort,
            int tcpFlags, int length, int nowMillis) {
        int base = claim(nowMillis);
        if (base < 0) {
            return;
        }
        long[] r = ring.records();
        r[base] = header(kind, 0, FlowKey.ipVersion(l4), FlowKey.proto(l4), tcpFlags);
        r[base + 1] = ((long) nowMillis << 32) | (ruleId & 0xFFFF_FFFFL);
        r[base + 2] = ((long) FlowKey.inPort(l4) << 32) | (outPort & 0xFFFF_FFFFL);
        r[base + 3] = ((long) length << 32) | ((long) FlowKey.srcPort(l4) << 16) | FlowKey.dstPort(l4);
        r[base + 4] = srcHi;
        r[base + 5] = srcLo;
        r[base + 6] = dstHi;
        r[base + 7] = dstLo;
        ring.publish();
    }

    /**
     * The end of a connection (FIN, RST, TIMEOUT, REVOKED or CLEARED), seen from its initiator, with what each
     * direction carried.
     */
    public void ended(int reason, int ruleId, int inPort, int outPort, long srcHi, long srcLo, long dstHi,
            long dstLo, int srcPort, int dstPort, int proto, int ipVersion, long packetsOut, long packetsIn,
            long bytesOut, long bytesIn, int nowMillis) {
        int base = claim(nowMillis);
        if (base < 0) {
            return;
        }
        long[] r = ring.records();
        r[base] = header(TERM, reason, ipVersion, proto, 0);
        r[base + 1] = ((long) nowMillis << 32) | (ruleId & 0xFFFF_FFFFL);
        r[base + 2] = ((long) inPort << 32) | (outPort & 0xFFFF_FFFFL);
        r[base + 3] = ((long) srcPort << 16) | dstPort;
        r[base + 4] = srcHi;
        r[base + 5] = srcLo;
        r[base + 6] = dstHi;
        r[base + 7] = dstLo;
        r[base + 8] = packetsOut;
        r[base + 9] = packetsIn;
        r[base + 10] = bytesOut;
        r[base + 11] = bytesIn;
        ring.publish();
    }

    /** A slot for one line, or -1 (counted) when the rate limit or a full ring refuses it. */
    private int claim(int nowMillis) {
        long[] c = counters.values();
        if (!limit.tryTake(nowMillis)) {
            c[SUPPRESSED]++;
            return -1;
        }
        int base = ring.claim();
        if (base < 0) {
            c[LOST]++;
            return -1;
        }
        c[QUEUED]++;
        return base;
    }

    private static long header(int kind, int reason, int ipVersion, int proto, int tcpFlags) {
        return ((long) kind << 56) | ((long) reason << 48) | ((long) ipVersion << 40) | ((long) proto << 32)
                | ((long) tcpFlags << 24);
    }
}
