package io.edp.engine.fastpath;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.slowpath.RuleSet;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A connection's registered flow-cache entry is hit without telling the connection: the connection reads the
 * entry's stamp when its own times say it timed out. It must then expire exactly when it would if every hit had
 * stored its time into the table — wherever displacement moved the entry, however the entry left, and while
 * another thread reads it as its worker moves it.
 */
class RestingEntryTest {

    /** UDP connections are ACTIVE, which times out after a minute idle. */
    private static final int TIMEOUT = 60_000;
    /**
     * Entries that outlive every test: only what the tests do removes them. (An entry resting on a connection is
     * still stale once idle for 20 s, so hits come more often.)
     */
    private static final int LONG_EXPIRY = 100_000_000;

    private final RuleSet rules = new RuleSet(List.of());
    private final ConnectionTable connections = new ConnectionTable(256);
    private final long[] counters = new long[FlowCache.COUNTER_COUNT];

    /** A UDP connection started at {@code nowMillis}; returns its initiator's reference. */
    private int connection(int nowMillis) {
        long l4 = FlowKey.l4Word(4000, 53, FlowKey.PROTO_UDP, 4, 0);
        return (int) connections.insert((long) 0x0A000001 << 32, 0, (long) 0x0A000002 << 32, 0, l4, 0, nowMillis,
                1, 1, 0, -1, 64, rules, null);
    }

    private boolean alive(int nowMillis) {
        return connections.stats(nowMillis).entries() == 1;
    }

    @Test
    void aConnectionLivesAsLongAsItsRegisteredEntryIsHitThoughNoHitTellsIt() {
        try (Keys keys = new Keys()) {
            int reference = connection(0);
            FlowCache cache = cache(16, LONG_EXPIRY);
            int slot = keys.install(cache, 1, flowHash(1), reference, 0);
            assertThat(keys.hit(cache, 1, flowHash(1), 19_000)).as("the registered entry tells nothing")
                    .isEqualTo(FlowCache.NO_CONNECTION);
            assertThat(cache.find(keys.key(1), 0, flowHash(1))).isEqualTo(slot);

            assertThat(alive(19_000 + TIMEOUT - 1)).as("a minute after its last hit, less a millisecond").isTrue();
            assertThat(alive(19_000 + TIMEOUT)).as("a minute after its last hit").isFalse();
        }
    }

    @Test
    void anEntryMovedByDisplacementStillKeepsItsConnectionAlive() {
        try (Keys keys = new Keys()) {
            int reference = connection(0);
            FlowCache cache = cache(8, LONG_EXPIRY); // two buckets of four
            Shuttle shuttle = new Shuttle(keys, cache, reference);
            shuttle.toSecondBucket();
            shuttle.hit(19_000);
            shuttle.toFirstBucket();
            assertThat(alive(19_000 + TIMEOUT - 1)).as("the hit taken in the other bucket counts").isTrue();

            shuttle.hit(38_000);
            shuttle.toSecondBucket();
            assertThat(alive(38_000 + TIMEOUT - 1)).isTrue();
            assertThat(alive(38_000 + TIMEOUT)).isFalse();
        }
    }

    /** The ways an entry stops resting on its connection. */
    enum Leaving {
        FORGOTTEN, EXPIRED, REINSTALLED_ON_NO_CONNECTION, FLUSHED, CLOSED
    }

    @ParameterizedTest
    @EnumSource(Leaving.class)
    void anEntryThatLeavesHandsItsLastHitToItsConnectionAndLetsAnotherEntryRegister(Leaving leaving) {
        try (Keys keys = new Keys()) {
            int reference = connection(0);
            FlowCache cache = cache(16, 60_000); // expires (and is swept) a minute after it was installed
            keys.install(cache, 1, flowHash(1), reference, 0);
            keys.hit(cache, 1, flowHash(1), 19_000);
            FlowCache other = cache(16, LONG_EXPIRY);
            keys.install(other, 2, flowHash(2), reference, 10_000);
            int told = keys.hit(other, 2, flowHash(2), 15_000);
            assertThat(told).as("a second entry on the direction tells its hits").isEqualTo(reference);
            connections.touch(told, 15_000); // as the fast path does

            switch (leaving) {
                case FORGOTTEN -> keys.forget(cache, 1, flowHash(1));
                case EXPIRED -> assertThat(cache.sweep(60_000, 16)).isEqualTo(1);
                case REINSTALLED_ON_NO_CONNECTION -> keys.install(cache, 1, flowHash(1), FlowCache.NO_CONNECTION,
                        55_000);
                case FLUSHED -> cache.flush();
                case CLOSED -> cache.close();
            }
            assertThat(alive(19_000 + TIMEOUT - 1)).as("the hit of the entry that left counts").isTrue();
            assertThat(alive(19_000 + TIMEOUT)).isFalse();

            keys.install(other, 3, flowHash(3), reference, 55_000);
            assertThat(keys.hit(other, 3, flowHash(3), 56_000)).as("the direction's new registered entry")
                    .isEqualTo(FlowCache.NO_CONNECTION);
            assertThat(alive(56_000 + TIMEOUT - 1)).isTrue();
            assertThat(alive(56_000 + TIMEOUT)).isFalse();
        }
    }

    /**
     * A reader on another thread (a worker's connection sweep, a listing) asks whether the connection lives while
     * its entry's worker keeps hitting it and moving it between its two buckets: every answer must count every hit
     * taken before the question. The worker goes on (in simulated time) until the reader has asked often enough.
     */
    @Test
    void aConnectionReadsItsEntryRightWhileItsWorkerMovesIt() throws Exception {
        int reference = connection(0);
        FlowCache cache = cache(8, LONG_EXPIRY);
        AtomicInteger lastHit = new AtomicInteger(-1);
        AtomicLong asked = new AtomicLong();
        AtomicBoolean done = new AtomicBoolean();
        try (ExecutorService threads = Executors.newFixedThreadPool(2)) {
            Future<Integer> worker = threads.submit(() -> {
                try (Keys keys = new Keys()) {
                    Shuttle shuttle = new Shuttle(keys, cache, reference);
                    int now = 10;
                    // 200,000 rounds at least, and 20,000 questions; entries live 100,000,000 ms
                    for (; (now <= 2_000_000 || asked.get() < 20_000) && now < LONG_EXPIRY - TIMEOUT; now += 10) {
                        shuttle.hit(now);
                        lastHit.set(now);
                        shuttle.toSecondBucket();
                        shuttle.toFirstBucket();
                    }
                    return now;
                } finally {
                    done.set(true);
                }
            });
            Future<Long> reader = threads.submit(() -> {
                long timedOut = 0;
                while (!done.get()) {
                    int hit = lastHit.get();
                    if (hit >= 0) {
                        timedOut += alive(hit + TIMEOUT - 1) ? 0 : 1;
                        asked.incrementAndGet();
                    }
                }
                return timedOut;
            });
            assertThat(worker.get()).as("the worker's rounds ended before entries expire")
                    .isLessThan(LONG_EXPIRY - TIMEOUT);
            assertThat(reader.get()).as("answers that the connection had timed out").isZero();
            assertThat(asked.get()).as("questions").isGreaterThanOrEqualTo(20_000);
        }
    }

    private FlowCache cache(int capacity, int expiryMillis) {
        return new FlowCache(capacity, expiryMillis, expiryMillis, 7, counters, connections);
    }

    /** A distinct hash per flow number, whatever its buckets. */
    private static int flowHash(int flow) {
        return flow * 0x01000193 | 1;
    }

    /**
     * One entry, resting on a connection, that a two-bucket cache's displacement moves back and forth: three
     * keys fill each bucket beside it, and a fourth key of that bucket alone pushes it into the other.
     */
    private static final class Shuttle {

        private static final int SHUTTLE = 100;

        private final Keys keys;
        private final FlowCache cache;
        private final int hash;
        /** Hashes whose both buckets are the first bucket, and the second; the last of each is the pusher. */
        private final int[] first = bucketHashes(0);
        private final int[] second = bucketHashes(1);

        Shuttle(Keys keys, FlowCache cache, int reference) {
            this.keys = keys;
            this.cache = cache;
            this.hash = hashWithBuckets(0, 1);
            keys.install(cache, SHUTTLE, hash, reference, 0);
            for (int i = 0; i < 3; i++) {
                keys.install(cache, 200 + i, first[i], FlowCache.NO_CONNECTION, 0);
                keys.install(cache, 300 + i, second[i], FlowCache.NO_CONNECTION, 0);
            }
        }

        int slot() {
            return cache.find(keys.key(SHUTTLE), 0, hash);
        }

        void hit(int nowMillis) {
            assertThat(keys.hit(cache, SHUTTLE, hash, nowMillis)).isEqualTo(FlowCache.NO_CONNECTION);
        }

        /** The first bucket's pusher comes and goes: the shuttle moves to the second bucket. */
        void toSecondBucket() {
            keys.install(cache, 203, first[3], FlowCache.NO_CONNECTION, 0);
            assertThat(slot()).as("displaced into its alternative bucket").isGreaterThanOrEqualTo(4);
            keys.forget(cache, 203, first[3]);
        }

        void toFirstBucket() {
            keys.install(cache, 303, second[3], FlowCache.NO_CONNECTION, 0);
            assertThat(slot()).as("displaced back into its primary bucket").isLessThan(4);
            keys.forget(cache, 303, second[3]);
        }

        /** Four hashes whose primary and alternative bucket are both {@code bucket} (of two). */
        private static int[] bucketHashes(int bucket) {
            int[] hashes = new int[4];
            int n = 0;
            for (int h = 1; n < hashes.length; h++) {
                if (primary(h) == bucket && alternative(h) == bucket) {
                    hashes[n++] = h;
                }
            }
            return hashes;
        }

        private static int hashWithBuckets(int primary, int alternative) {
            for (int h = 1;; h++) {
                if (primary(h) == primary && alternative(h) == alternative) {
                    return h;
                }
            }
        }

        /** The buckets of a two-bucket cache, as {@link FlowCache} derives them from a hash. */
        private static int primary(int hash) {
            return hash & 1;
        }

        private static int alternative(int hash) {
            return (hash * 0x9E3779B1) >>> 31;
        }
    }

    /** Flow keys, one line each, on the thread that made them; flow {@code n}'s key differs in its source. */
    private static final class Keys implements AutoCloseable {

        private final Arena arena = Arena.ofConfined();
        private final MemorySegment lines = arena.allocate(64 * 512);

        MemorySegment key(int flow) {
            MemorySegment key = lines.asSlice(64L * flow, 64);
            key.set(ValueLayout.JAVA_LONG, FlowKey.SRC_HI, (long) (0x0B000000 + flow) << 32);
            key.set(ValueLayout.JAVA_LONG, FlowKey.L4, FlowKey.l4Word(4000, 53, FlowKey.PROTO_UDP, 4, 0));
            return key;
        }

        int install(FlowCache cache, int flow, int hash, int reference, int nowMillis) {
            return cache.install(key(flow), 0, hash, 1, 1, nowMillis, reference);
        }

        void forget(FlowCache cache, int flow, int hash) {
            cache.forget(key(flow), 0, hash);
        }

        /** A packet of the flow hits its entry, as the fast path takes it; returns what the hit tells the table. */
        int hit(FlowCache cache, int flow, int hash, int nowMillis) {
            int slot = cache.lookup(key(flow), 0, hash, 1, nowMillis);
            assertThat(slot).as("flow %d's entry is current", flow).isNotNegative();
            return cache.touchHit(slot, nowMillis);
        }

        @Override
        public void close() {
            arena.close();
        }
    }
}
