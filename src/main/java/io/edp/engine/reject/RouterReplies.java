package io.edp.engine.reject;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.metrics.Counters;
import io.edp.engine.packet.FlowKey;
import java.lang.foreign.ValueLayout;

/**
 * One worker's packets from the router itself: answers to ARP requests, neighbor solicitations and echo requests
 * for its gateway addresses ({@link RouterReply}), ICMP / ICMPv6 time exceeded (RFC 792, RFC 4443 3.3) for a
 * routed packet whose TTL or hop limit ran out, and fragmentation needed (RFC 1191) / packet too big (RFC 4443 3.2)
 * for one larger than its egress port's MTU. Each is built in a fresh buffer of the worker's {@link MbufCache},
 * leaves out of the ingress port, and takes a token of one bucket of {@link #RATE_PER_SECOND} a second, bursts
 * of {@link #BURST} (on the engine clock), so no flood of requests turns into a flood of answers. Errors are not
 * sent where a host sends none either ({@link RejectReply#kind}).
 */
public final class RouterReplies {

    public static final int RATE_PER_SECOND = 1000;
    public static final int BURST = 100;

    // counters
    public static final int ARP_REPLIES = 0;
    public static final int NEIGHBOR_ADVERTISEMENTS = 1;
    public static final int ECHO_REPLIES = 2;
    public static final int TIME_EXCEEDED = 3;
    public static final int RATE_LIMITED = 4;
    public static final int NO_BUFFER = 5;
    /** Frames for the router it does not answer (not a request it knows, a fragment, malformed). */
    public static final int UNANSWERED = 6;
    public static final int PACKET_TOO_BIG = 7;
    public static final int COUNTER_COUNT = 8;

    /** {@link #error} kinds. */
    public static final int TIME_EXCEEDED_ERROR = 0;
    public static final int TOO_BIG_ERROR = 1;

    static final int ICMP_TIME_EXCEEDED = 11;
    static final int ICMPV6_TIME_EXCEEDED = 3;
    static final int ICMP_UNREACHABLE = 3;
    static final int ICMP_FRAGMENTATION_NEEDED = 4;
    static final int ICMPV6_PACKET_TOO_BIG = 2;

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private final Counters counters = new Counters(COUNTER_COUNT);
    private final ReplyBuffers buffers;

    public RouterReplies(MbufPool pool) {
        this.buffers = new ReplyBuffers(pool, RATE_PER_SECOND, BURST, counters, RATE_LIMITED, NO_BUFFER);
    }

    /** ARP replies, neighbor advertisements, echo replies, time exceeded, rate limited, no buffer, unanswered. */
    public Counters counters() {
        return counters;
    }

    /**
     * The buffer holding the answer to {@code m}, a frame for the router, from {@code routerMac}; -1 when it gets
     * none (nothing it answers, the rate limit holds, or the pool is empty).
     */
    public int answer(Mbuf m, long routerMac, MbufCache cache, int nowMillis) {
        int kind = RouterReply.kind(m);
        long[] c = counters.values();
        if (kind == RouterReply.NONE) {
            c[UNANSWERED]++;
            return -1;
        }
        int index = buffers.take(cache, nowMillis);
        if (index >= 0) {
            RouterReply.write(kind, m, buffers.wrap(index), routerMac);
            c[kind == RouterReply.ARP_REPLY ? ARP_REPLIES
                    : kind == RouterReply.NEIGHBOR_ADVERTISEMENT ? NEIGHBOR_ADVERTISEMENTS : ECHO_REPLIES]++;
        }
        return index;
    }

    /**
     * The buffer holding an ICMP / ICMPv6 error for the routed packet {@code m}, from the gateway address (flow-key
     * form) of its segment: {@link #TIME_EXCEEDED_ERROR} when its TTL ran out, {@link #TOO_BIG_ERROR}
     * (fragmentation needed, packet too big) when it exceeds the egress port's {@code mtu}; -1 when it gets none
     * (no error is due, the segment has no gateway address of the packet's family, the rate limit holds, or the
     * pool is empty).
     */
    public int error(int error, Mbuf m, int mtu, long gatewayHi, long gatewayLo, MbufCache cache, int nowMillis) {
        int kind = RejectReply.kind(m);
        if (kind == RejectReply.NONE || (gatewayHi == 0 && gatewayLo == 0)) {
            return -1;
        }
        int index = buffers.take(cache, nowMillis);
        if (index >= 0) {
            boolean v4 = FlowKey.ipVersion(m.descriptors().get(LONG, m.flowKeyAddress() + FlowKey.L4)) == 4;
            boolean tooBig = error == TOO_BIG_ERROR;
            int type = tooBig ? (v4 ? ICMP_UNREACHABLE : ICMPV6_PACKET_TOO_BIG)
                    : (v4 ? ICMP_TIME_EXCEEDED : ICMPV6_TIME_EXCEEDED);
            RejectReply.write(RejectReply.UNREACHABLE, m, buffers.wrap(index), type,
                    tooBig && v4 ? ICMP_FRAGMENTATION_NEEDED : 0, tooBig ? mtu : 0, gatewayHi, gatewayLo);
            counters.values()[tooBig ? PACKET_TOO_BIG : TIME_EXCEEDED]++;
        }
        return index;
    }
}
