package io.edp.engine.reject;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.metrics.Counters;

/**
 * Where a worker's answers ({@link RejectReplies}, {@link RouterReplies}) get their buffers: each takes a token of
 * its own rate limit (a {@link TokenBucket} on the engine clock) and a fresh buffer of the worker's
 * {@link MbufCache}; an answer that finds either missing is not built, and counted in its owner's counters.
 */
final class ReplyBuffers {

    private final TokenBucket bucket;
    private final Mbuf reply;
    private final long[] counters;
    private final int rateLimited;
    private final int noBuffer;

    /** {@code ratePerSecond} answers a second, bursts of {@code burst}; misses counted at the two indices. */
    ReplyBuffers(MbufPool pool, int ratePerSecond, int burst, Counters counters, int rateLimited, int noBuffer) {
        this.bucket = new TokenBucket(ratePerSecond, burst);
        this.reply = new Mbuf(pool);
        this.counters = counters.values();
        this.rateLimited = rateLimited;
        this.noBuffer = noBuffer;
    }

    /** A fresh buffer for an answer at {@code nowMillis}; -1 when the rate limit holds or the pool is empty. */
    int take(MbufCache cache, int nowMillis) {
        if (!bucket.tryTake(nowMillis)) {
            counters[rateLimited]++;
            return -1;
        }
        int index = cache.allocate();
        if (index < 0) {
            counters[noBuffer]++;
        }
        return index;
    }

    /** Buffer {@code index}, taken here, to write the answer into. */
    Mbuf wrap(int index) {
        return reply.wrap(index);
    }
}
