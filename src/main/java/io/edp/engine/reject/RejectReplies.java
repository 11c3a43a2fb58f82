package io.edp.engine.reject;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.metrics.Counters;

/**
 * One worker's answers to rejected packets ({@link RejectReply}): built in a fresh buffer of the worker's
 * {@link MbufCache} and rate-limited by a token bucket of {@link #RATE_PER_SECOND} replies a second, bursts of
 * {@link #BURST}, so a flood of rejected packets cannot turn the engine into a flood of replies. The fast path
 * and the slow path both call it for a FIREWALL_REJECT verdict, so both send the same replies.
 */
public final class RejectReplies {

    public static final int RATE_PER_SECOND = 100;
    public static final int BURST = 100;

    // counters
    public static final int SENT = 0;
    public static final int RATE_LIMITED = 1;
    public static final int NO_BUFFER = 2;
    public static final int COUNTER_COUNT = 3;

    private final Counters counters = new Counters(COUNTER_COUNT);
    private final ReplyBuffers buffers;

    public RejectReplies(MbufPool pool) {
        this.buffers = new ReplyBuffers(pool, RATE_PER_SECOND, BURST, counters, RATE_LIMITED, NO_BUFFER);
    }

    /** Replies sent, replies the rate limit held back, replies without a free buffer. */
    public Counters counters() {
        return counters;
    }

    /**
     * The buffer holding the reply to the rejected packet of {@code rejected}, to transmit out of its ingress
     * port; -1 when it gets none (nothing is due, the rate limit holds, or the pool is empty).
     */
    public int reply(Mbuf rejected, MbufCache cache, int nowMillis) {
        int kind = RejectReply.kind(rejected);
        if (kind == RejectReply.NONE) {
            return -1;
        }
        int index = buffers.take(cache, nowMillis);
        if (index >= 0) {
            RejectReply.write(kind, rejected, buffers.wrap(index));
            counters.values()[SENT]++;
        }
        return index;
    }
}
