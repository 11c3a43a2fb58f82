package io.edp.engine.worker;

import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.Action;
import io.edp.engine.slowpath.ActionTable;
import io.edp.engine.slowpath.IoChain;
import io.edp.engine.telemetry.FlowMeter;
import io.edp.engine.verifier.FlowVerifier;
import java.lang.foreign.MemorySegment;

/**
 * The fast-path stage of a worker's burst (dpif-netdev's EMC lookup): looks a packet's flow key up in the worker's
 * {@link FlowCache} and, on a current hit, returns the cached action; on a miss the packet goes to the
 * {@link MissPath}, and {@link #install} caches what the miss path decided. It also owns the cache's lifecycle:
 * sized and flushed as generations change ({@link #adopt}), swept between bursts.
 */
final class FastPath {

    /** What {@link #lookup} returns when the packet must take the miss path. */
    static final int MISS = Integer.MIN_VALUE;

    /** {@link #lookup} sent the packet to the miss path without looking: its verdict is never cached. */
    private static final int UNCACHEABLE = -3;
    private static final int SLOW_PATH_TCP_FLAGS = FlowKey.TCP_SYN | FlowKey.TCP_FIN | FlowKey.TCP_RST;
    private static final int FLOW_END_TCP_FLAGS = FlowKey.TCP_FIN | FlowKey.TCP_RST;

    private final ActionTable actions;
    private final long[] cacheCounters;
    private final long seed;
    /** Re-decides a sampled hit through the slow path, side-effect free, and counts a mismatch. */
    private final FlowVerifier verifier;
    private final IoChain ioChain;
    /** IPFIX: where the cache's counters go, and which packets are counted. */
    private final FlowMeter meter;
    private FlowCache cache;
    /**
     * Whether the port the burst came from sends every packet to the slow path (an E1000 adapter's): a queue's
     * frames all arrive on its port, so this is looked up once a burst ({@link #receiving}), not per packet.
     */
    private boolean portSlowPathOnly;
    /** Why the last {@link #lookup} missed: {@link FlowCache#MISS}, {@link FlowCache#STALE} or {@link #UNCACHEABLE}. */
    private int missed;
    /** The flow hash of the packet the last {@link #lookup} missed, read before the miss path runs. */
    private int missedHash;

    FastPath(ActionTable actions, long[] cacheCounters, long seed, FlowVerifier verifier, IoChain ioChain,
            FlowMeter meter) {
        this.actions = actions;
        this.meter = meter;
        this.verifier = verifier;
        this.ioChain = ioChain;
        this.cacheCounters = cacheCounters;
        this.seed = seed;
    }

    /** The flow cache, null before the fast path first ran. */
    FlowCache cache() {
        return cache;
    }

    /**
     * Makes the cache fit {@code g}: a new one when the fast path starts or its size or expiry window changed, an
     * emptied one when the generation number's high bits moved (an entry keeps only the low 16) or LEGACY takes
     * over (it counts flows in its own table). Entries' counters are exported before they go, and the cache
     * exports as the generation's IPFIX settings say.
     */
    void adopt(Generation previous, Generation g) {
        if (g.fastPath() && (cache == null || cache.capacity() != g.flowCacheCapacity()
                || previous == null || previous.minExpiryMillis() != g.minExpiryMillis()
                || previous.maxExpiryMillis() != g.maxExpiryMillis())) {
            if (cache != null) {
                cache.close();
            }
            cacheCounters[FlowCache.ENTRIES] = 0;
            cache = new FlowCache(g.flowCacheCapacity(), g.minExpiryMillis(), g.maxExpiryMillis(), seed,
                    cacheCounters, g.tables().connections());
        } else if (cache != null && previous != null && (g.number() >>> 16) != (previous.number() >>> 16)) {
            cache.flush(); // the cache keeps 16 generation bits: never let an old entry look current
        } else if (cache != null && previous != null && previous.fastPath() && !g.fastPath()) {
            cache.flush();
        }
        if (cache != null) {
            cache.exportTo(meter.export(), g.ipfix().activeTimeoutMillis(), g.ipfix().idleTimeoutMillis());
        }
    }

    /** Empties the cache (the action table restarts, or the control side asked). */
    void flush() {
        if (cache != null) {
            cache.flush();
        }
    }

    /** The worker ends: the cache is emptied, its counters exported, and it lets go of the connection table. */
    void close() {
        if (cache != null) {
            cache.close();
        }
    }

    /** Retires a bounded slice of expired entries. */
    void sweep(Generation g, int nowMillis, int budget) {
        if (cache != null && g.fastPath()) {
            cache.sweep(nowMillis, budget);
        }
    }

    /** A burst from {@code port} begins: whether its packets may use the cache at all, under {@code g}. */
    void receiving(int port, Generation g) {
        portSlowPathOnly = g.tables().isSlowPathOnly(port);
    }

    /**
     * Loads what the lookups of a burst's packets will read and sets their likely slots ({@link FlowCache#warm});
     * returns a sum of what was loaded.
     */
    long warm(int[] hashes, long[] l4Words, int[] likely, int n) {
        return cache.warm(hashes, l4Words, likely, n);
    }

    /**
     * The cached action of {@code m}'s flow, or {@link #MISS}: the flow has no current entry, or its packet must see
     * the slow path (slow-path-only key, TCP SYN/FIN/RST, a port whose packets all go slow: the burst's, as
     * {@link #receiving} found it). The entry is looked for at {@code likelySlot} first
     * ({@link FlowCache#lookup(MemorySegment, long, int, int, int, int)}). {@code hash} and {@code length} are the
     * packet's flow hash and frame length as the pipeline already read them: each descriptor read costs C2 about 700
     * nodes of the 18,000 after which it inlines nothing more into a compile unit, and the hit path is to fit in one
     * (docs/engine.md, the pipeline).
     */
    int lookup(Mbuf m, int hash, int length, Generation g, int nowMillis, int likelySlot) {
        MemorySegment d = m.descriptors();
        long key = m.flowKeyAddress();
        long details = FlowKey.details(d, key);
        int tcpFlags = FlowKey.tcpFlags(details);
        if ((FlowKey.flags(details) & FlowKey.FLAG_SLOW_PATH_ONLY) != 0 || (tcpFlags & SLOW_PATH_TCP_FLAGS) != 0
                || portSlowPathOnly) {
            cacheCounters[FlowCache.SLOW_PATH]++;
            missed = UNCACHEABLE;
            if (meter.on() && (tcpFlags & FLOW_END_TCP_FLAGS) != 0) {
                cache.endFlow(d, key, hash); // the flow ends: its cached counters are exported now
            }
            return MISS;
        }
        FlowCache c = cache;
        int slot = c.lookup(d, key, hash, g.number(), nowMillis, likelySlot);
        if (slot >= 0) {
            if (meter.sampled()) {
                c.count(slot, length, tcpFlags, nowMillis);
            }
            int connection = c.touchHit(slot, nowMillis);
            if (connection != FlowCache.NO_CONNECTION) {
                // the hit keeps its connection alive (a registered entry's connection reads the entry's stamp)
                g.tables().connections().touch(connection, nowMillis);
            }
            int actionIndex = c.hitActionIndex();
            Action action = actions.get(actionIndex);
            if (g.tables().rules().logs()) {
                countLogged(c.connection(slot), action.ruleId(), length, g);
            }
            verifier.onHit(m, g, nowMillis, ioChain, action);
            return actionIndex;
        }
        cacheCounters[FlowCache.SLOW_PATH]++;
        missed = slot;
        missedHash = hash;
        return MISS;
    }

    /** A hit on a logged rule's connection counts towards the connection's TERM line, as the slow path would. */
    private static void countLogged(int connection, int ruleId, int length, Generation g) {
        if (connection != FlowCache.NO_CONNECTION && g.tables().rules().logsId(ruleId)) {
            g.tables().connections().count(connection, length);
        }
    }

    /**
     * After the miss path decided {@code actionIndex} for the packet {@link #lookup} just missed (a frame of
     * {@code length} bytes): caches a cacheable action, or forgets the stale entry that would otherwise be
     * revalidated again on every packet. Returns whether the cache took the packet's count (sampled or not); if
     * not, the caller counts it elsewhere.
     */
    boolean install(Mbuf m, int length, Generation g, int nowMillis, int actionIndex) {
        if (missed == UNCACHEABLE) {
            return false;
        }
        MemorySegment d = m.descriptors();
        long key = m.flowKeyAddress();
        int hash = missedHash;
        Action action = actionIndex >= 0 ? actions.get(actionIndex) : null;
        if (action != null && action.cacheable()) {
            int slot = cache.install(d, key, hash, actionIndex, g.number(), nowMillis, (int) m.connection());
            if (slot >= 0) {
                cache.label(slot, action.ruleId(), action.outPort());
                if (meter.sampled()) {
                    cache.countFirst(slot, length, FlowKey.tcpFlags(d, key), nowMillis);
                }
                return true;
            }
        } else if (missed == FlowCache.STALE) {
            cache.forget(d, key, hash);
        }
        return false;
    }
}
