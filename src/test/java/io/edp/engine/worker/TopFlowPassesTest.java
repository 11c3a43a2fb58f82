package io.edp.engine.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.fastpath.CachedFlow;
import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.fastpath.TopFlowSelection;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.ActionTable;
import io.edp.engine.slowpath.ConnectionTable;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An idle worker's top-flows snapshots: a cache that did not change is not walked again, only stamped anew. */
class TopFlowPassesTest {

    private static final long MS = 1_000_000;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment key = arena.allocate(64);
    private final long[] counters = new long[FlowCache.COUNTER_COUNT];
    private final FlowCache cache = new FlowCache(1024, 90_000, 150_000, 7, counters,
            new ConnectionTable(256));
    private final ActionTable actions = new ActionTable(16);
    private final TopFlowPasses passes = new TopFlowPasses();

    @AfterEach
    void close() {
        arena.close();
    }

    @Test
    void anUnchangedCacheIsNotWalkedAgainButItsSnapshotIsTakenAnew() {
        int slot = cache.install(key, 0, flow(1), 0, 1, 0);
        cache.count(slot, 64, 0, 0);
        passes.step(cache, actions, 1, 0, 0);
        TopFlowSelection.Snapshot first = passes.latest();
        assertThat(first.flows()).extracting(CachedFlow::packets).containsExactly(1L);

        // counted behind the cache's back (no hit recorded): only a walk of the cache would see it
        cache.count(slot, 64, 0, 0);
        passes.step(cache, actions, 1, TopFlowPasses.INTERVAL_MILLIS, TopFlowPasses.INTERVAL_MILLIS * MS);
        TopFlowSelection.Snapshot retaken = passes.latest();
        assertThat(retaken.takenNanos()).isEqualTo(TopFlowPasses.INTERVAL_MILLIS * MS);
        assertThat(retaken.passNanos()).isEqualTo(first.passNanos());
        assertThat(retaken.flows()).extracting(CachedFlow::packets).containsExactly(1L);

        counters[FlowCache.HITS]++; // a hit: the next pass walks
        passes.step(cache, actions, 1, 2 * TopFlowPasses.INTERVAL_MILLIS, 2 * TopFlowPasses.INTERVAL_MILLIS * MS);
        assertThat(passes.latest().flows()).extracting(CachedFlow::packets).containsExactly(2L);
    }

    @Test
    void anInstallARemovalOrANewGenerationMakesTheNextPassWalk() {
        cache.install(key, 0, flow(1), 0, 1, 0);
        int at = 0;
        passes.step(cache, actions, 1, at, at * MS);
        assertThat(passes.latest().flows()).hasSize(1);

        cache.install(key, 0, flow(2), 0, 1, at);
        at += TopFlowPasses.INTERVAL_MILLIS;
        passes.step(cache, actions, 1, at, at * MS);
        assertThat(passes.latest().flows()).hasSize(2);

        cache.forget(key, 0, flow(2));
        at += TopFlowPasses.INTERVAL_MILLIS;
        passes.step(cache, actions, 1, at, at * MS);
        assertThat(passes.latest().flows()).hasSize(1);

        int slot = cache.find(key, 0, flow(1));
        cache.count(slot, 64, 0, at); // behind the cache's back, as above
        at += TopFlowPasses.INTERVAL_MILLIS;
        passes.step(cache, actions, 2, at, at * MS);
        assertThat(passes.latest().flows()).as("a new generation").extracting(CachedFlow::packets)
                .containsExactly(1L);

        cache.flush();
        at += TopFlowPasses.INTERVAL_MILLIS;
        passes.step(cache, actions, 2, at, at * MS);
        assertThat(passes.latest().flows()).isEmpty();
    }

    /** Writes flow {@code i}'s key and returns its hash. */
    private int flow(int i) {
        long src = (long) (0x0A000000 + i) << 32;
        long dst = (long) 0x0A800001 << 32;
        long l4 = FlowKey.l4Word(1024 + i, 5001, FlowKey.PROTO_UDP, 4, 0);
        long l2 = FlowKey.l2Word(0x020000000001L, 0);
        long[] words = {src, 0, dst, 0, l4, l2};
        for (int w = 0; w < words.length; w++) {
            key.set(ValueLayout.JAVA_LONG, 8L * w, words[w]);
        }
        return FlowKey.hash(src, 0, dst, 0, l4, l2);
    }
}
