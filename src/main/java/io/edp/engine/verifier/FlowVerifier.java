package io.edp.engine.verifier;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.metrics.Counters;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.Action;
import io.edp.engine.slowpath.IoChain;
import io.edp.engine.worker.Generation;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Instant;

/**
 * One worker's live verifier: every {@code verifierSampleRate}-th fast-path hit (a countdown, no random number)
 * is evaluated again by the slow path as a side-effect-free probe ({@link IoChain#agrees}) and the decision
 * compared with the cached action. A disagreement means the cache served a packet something the slow path would
 * not have given it; it is counted and recorded in the worker's {@link MismatchLog}. Owned by one worker (the
 * counters and the log are read by any thread); nothing allocates unless a mismatch is recorded.
 */
public final class FlowVerifier {

    public static final int CHECKS = 0;
    public static final int MISMATCHES = 1;
    public static final int COUNTER_COUNT = 2;

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private final int worker;
    private final MismatchLog log = new MismatchLog();
    private final Counters counters = new Counters(COUNTER_COUNT);
    private int countdown;

    public FlowVerifier(int worker) {
        this.worker = worker;
    }

    /** Checks and mismatches ({@link #CHECKS}, {@link #MISMATCHES}). */
    public Counters counters() {
        return counters;
    }

    /** The worker's last mismatches, oldest first. */
    public MismatchLog mismatches() {
        return log;
    }

    /**
     * Called on every fast-path hit of the parsed packet {@code m}, after the hit was accounted (so its
     * connection is as fresh as the hit made it); {@code cached} is the action the cache gave it.
     */
    public void onHit(Mbuf m, Generation g, int nowMillis, IoChain chain, Action cached) {
        int rate = g.verifierSampleRate();
        if (rate == 0 || (--countdown > 0 && countdown < rate)) {
            return; // a countdown above the rate is left from a larger one: check now and restart
        }
        countdown = rate;
        long[] c = counters.values();
        c[CHECKS]++;
        if (!chain.agrees(m, g.tables(), nowMillis, cached)) {
            c[MISMATCHES]++;
            log.add(new Mismatch(Instant.now(), worker, g.number(), describe(m), cached.toString(),
                    chain.probed().toString()));
        }
    }

    private static String describe(Mbuf m) {
        MemorySegment d = m.descriptors();
        long key = m.flowKeyAddress();
        return FlowKey.describe(d.get(LONG, key + FlowKey.SRC_HI), d.get(LONG, key + FlowKey.SRC_LO),
                d.get(LONG, key + FlowKey.DST_HI), d.get(LONG, key + FlowKey.DST_LO), d.get(LONG, key + FlowKey.L4),
                d.get(LONG, key + FlowKey.L2));
    }
}
