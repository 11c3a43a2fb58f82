package io.edp.engine.fastpath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.ActionTable;
import io.edp.engine.slowpath.ConnectionTable;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FlowCacheTest {

    private static final int MIN = 90_000;
    private static final int MAX = 150_000;

    private final Arena arena = Arena.ofConfined();
    /** One 64-byte flow key line, as the parser leaves it in an mbuf. */
    private final MemorySegment key = arena.allocate(64);
    private final long[] counters = new long[FlowCache.COUNTER_COUNT];

    @AfterEach
    void close() {
        arena.close();
    }

    /** Writes flow {@code i}'s key and returns its hash. */
    private int flow(int i) {
        long src = (long) (0x0A000000 + i) << 32;
        long dst = (long) 0x0A800001 << 32;
        long l4 = FlowKey.l4Word(1024 + (i & 0x7FFF), 5001, 17, 4, 0);
        long l2 = FlowKey.l2Word(0x020000000001L, 0);
        key.set(ValueLayout.JAVA_LONG, FlowKey.SRC_HI, src);
        key.set(ValueLayout.JAVA_LONG, FlowKey.SRC_LO, 0);
        key.set(ValueLayout.JAVA_LONG, FlowKey.DST_HI, dst);
        key.set(ValueLayout.JAVA_LONG, FlowKey.DST_LO, 0);
        key.set(ValueLayout.JAVA_LONG, FlowKey.L4, l4);
        key.set(ValueLayout.JAVA_LONG, FlowKey.L2, l2);
        return FlowKey.hash(src, 0, dst, 0, l4, l2);
    }

    /**
     * Keys that differ in one field only, as real traffic often does (many connections between a load balancer
     * and its backend differ only in the source port), with the cache size the field's range can fill.
     */
    enum OneField {
        SOURCE_PORT(65_536), DESTINATION_PORT(65_536), IPV4_SOURCE(131_072), IPV4_DESTINATION(131_072),
        IPV6_SOURCE(131_072), IPV6_DESTINATION(131_072), IPV6_DESTINATION_HOST(131_072), DESTINATION_MAC(131_072),
        VLAN(4_096);

        final int capacity;

        OneField(int capacity) {
            this.capacity = capacity;
        }

        /** The six key words of key {@code i}: a fixed UDP flow with this field set from {@code i}. */
        long[] words(int i) {
            boolean v6 = this == IPV6_SOURCE || this == IPV6_DESTINATION || this == IPV6_DESTINATION_HOST;
            long[] w = {0x0A000001L << 32, 0, 0x0A800001L << 32, 0, 0, 0};
            if (v6) {
                w = new long[] {0xFD00_0000_0000_0000L, 1, 0xFD01_0000_0000_0000L, 1, 0, 0};
            }
            int srcPort = this == SOURCE_PORT ? i : 40_000;
            int dstPort = this == DESTINATION_PORT ? i : 5001;
            w[FlowKey.L4 / 8] = FlowKey.l4Word(srcPort, dstPort, FlowKey.PROTO_UDP, v6 ? 6 : 4, 3);
            long mac = this == DESTINATION_MAC ? 0x0200_0000_0000L + i : 0x0200_0000_0001L;
            w[FlowKey.L2 / 8] = FlowKey.l2Word(mac, this == VLAN ? FlowKey.VLAN_TAGGED | i : 0);
            switch (this) {
                case IPV4_SOURCE -> w[0] = (0x0A000000L + i) << 32;
                case IPV4_DESTINATION -> w[2] = (0x0A800000L + i) << 32;
                case IPV6_SOURCE -> w[1] = i; // fd00::i
                case IPV6_DESTINATION -> w[2] |= (long) i << 16; // fd01:0:0:i::1, a /64 per key
                case IPV6_DESTINATION_HOST -> w[3] = i; // fd01::i: the low words are in the entry's second line
                default -> { }
            }
            return w;
        }
    }

    /** Writes key {@code w} into the key line and returns its hash. */
    private int key(long[] w) {
        for (int i = 0; i < 6; i++) {
            key.set(ValueLayout.JAVA_LONG, 8L * i, w[i]);
        }
        return FlowKey.hash(w[0], w[1], w[2], w[3], w[4], w[5]);
    }

    @ParameterizedTest
    @EnumSource(OneField.class)
    void aCacheFilledToNinetyPercentWithKeysDifferingInOneFieldHoldsThemAll(OneField field) {
        FlowCache cache = cache(field.capacity);
        int keys = field.capacity * 9 / 10 + 1;
        for (int i = 0; i < keys; i++) {
            cache.install(key, 0, key(field.words(i)), i % FlowCache.MAX_ACTIONS, 1, 0);
        }
        int hits = 0;
        for (int i = 0; i < keys; i++) {
            int slot = cache.lookup(key, 0, key(field.words(i)), 1, 1);
            hits += slot >= 0 && cache.actionIndex(slot) == i % FlowCache.MAX_ACTIONS ? 1 : 0;
        }
        assertThat((double) hits / keys).as("hit rate of %,d installed keys in %,d entries, %,d evictions", keys,
                field.capacity, counters[FlowCache.EVICTIONS]).isGreaterThanOrEqualTo(0.99);
        assertThat(counters[FlowCache.ENTRIES]).isEqualTo(keys - counters[FlowCache.EVICTIONS]);
    }

    /**
     * The likely slot matches a signature exactly, whatever its bits: signatures that differ from the hash only in
     * the sign bit, or in every bit above the bucket's but the sign, share its bucket (the low bits pick it) and are
     * never taken for it; of two entries that share the hash itself, the last way is the likely one.
     */
    @Test
    void theLikelySlotIsTheLastWayWhoseSignatureIsTheHashExactly() {
        FlowCache cache = cache(1_024); // 256 buckets of 4 ways: the low 8 bits of a hash pick its bucket
        int hash = 0x1234_5670;
        int[] nearHashes = {hash ^ Integer.MIN_VALUE, hash ^ 0x7FFF_FF00};
        int[] nearSlots = new int[nearHashes.length];
        for (int i = 0; i < nearHashes.length; i++) {
            flow(i);
            nearSlots[i] = cache.install(key, 0, nearHashes[i], 1, 1, 0);
        }
        assertThat(cache.likelySlot(hash)).as("no way holds the hash yet").isEqualTo(-1);
        flow(10);
        int first = cache.install(key, 0, hash, 1, 1, 0);
        flow(11); // another key with the same hash
        int second = cache.install(key, 0, hash, 1, 1, 0);
        assertThat(List.of(first / 4, second / 4, nearSlots[0] / 4, nearSlots[1] / 4)).as("buckets")
                .containsOnly(hash & 0xFF);
        assertThat(cache.likelySlot(hash)).isEqualTo(Math.max(first, second));
        for (int i = 0; i < nearHashes.length; i++) {
            assertThat(cache.likelySlot(nearHashes[i])).isEqualTo(nearSlots[i]);
        }
    }

    @Test
    void theWarmStageFindsEveryEntryOfANearlyFullCacheDisplacedOnesIncluded() {
        int capacity = 131_072;
        int keys = 125_000; // the benchmark's flows per worker: 95 % of the default capacity
        FlowCache cache = cache(capacity);
        for (int i = 0; i < keys; i++) {
            cache.install(key, 0, flow(i), 1, 1, 0);
        }
        int displaced = 0;
        int elsewhere = 0;
        Set<Integer> hashes = new HashSet<>();
        for (int i = 0; i < keys; i++) {
            int hash = flow(i);
            hashes.add(hash);
            int slot = cache.find(key, 0, hash);
            elsewhere += cache.likelySlot(hash) != slot ? 1 : 0;
            // not in its primary bucket (4 ways a bucket)
            displaced += slot >= 0 && slot / 4 != (hash & (capacity / 4 - 1)) ? 1 : 0;
        }
        assertThat(displaced).as("entries in their alternative bucket").isGreaterThan(keys / 5);
        // only a key whose 32-bit hash another key shares may be told the other's slot
        assertThat(elsewhere).as("keys whose likely slot is not theirs").isLessThanOrEqualTo(keys - hashes.size());
        assertThat(cache.likelySlot(flow(keys))).as("a key never installed").isEqualTo(-1);
    }

    @Test
    void theWarmStageSetsEachPacketsLikelySlotAndLoadsWhatItsRowAndEntryHold() {
        FlowCache cache = cache(4096); // 1,024 buckets of 4 ways
        long[] v6 = OneField.IPV6_SOURCE.words(5); // fd00::5: its low source word is in the entry's second line
        int[] hashes = {flow(1), 0, flow(2), 0};
        long[] l4Words = {key.get(ValueLayout.JAVA_LONG, FlowKey.L4), 0, 0, 0};
        hashes[1] = key(v6);
        l4Words[1] = v6[FlowKey.L4 / 8];
        int[] likely = {-7, -7, -7, -7};
        assertThat(cache.warm(hashes, l4Words, likely, 2)).as("empty rows and entries").isZero();
        assertThat(likely).as("no slot yet: slot 0 stands in; the others are not of the burst")
                .containsExactly(0, 0, -7, -7);
        int v6Slot = cache.install(key, 0, hashes[1], 1, 1, 0);
        flow(1);
        int v4Slot = cache.install(key, 0, hashes[0], 1, 1, 0);
        // each went to the first way of its primary bucket, whose row's first signature is its hash
        assertThat(List.of(v4Slot, v6Slot)).containsExactly((hashes[0] & 1023) * 4, (hashes[1] & 1023) * 4);
        long loaded = cache.warm(hashes, l4Words, likely, 2);
        assertThat(likely).containsExactly(v4Slot, v6Slot, -7, -7);
        // the rows' first signatures, each entry's first word (the source address' high word), and the IPv6
        // entry's second line's low source word
        assertThat(loaded).isEqualTo(hashes[0] + ((long) (0x0A000000 + 1) << 32) + hashes[1] + v6[0] + v6[1]);
        // a train of one flow's packets, another flow's between them: each packet its own flow's slot
        int[] train = {hashes[0], hashes[0], hashes[1], hashes[0]};
        int[] trainLikely = new int[train.length];
        cache.warm(train, new long[] {l4Words[0], l4Words[0], l4Words[1], l4Words[0]}, trainLikely, train.length);
        assertThat(trainLikely).containsExactly(v4Slot, v4Slot, v6Slot, v4Slot);
    }

    @Test
    void aLookupThatLooksAtAnySlotFirstFindsWhatTheBucketsHold() {
        int capacity = 64;
        int keys = 60; // nearly full: some entries are displaced, and installs move earlier ones
        FlowCache cache = cache(capacity);
        for (int i = 0; i < keys; i++) {
            cache.install(key, 0, flow(i), i, 1, 0);
        }
        for (int i = 0; i < keys; i++) {
            int hash = flow(i);
            int slot = cache.find(key, 0, hash);
            for (int first = 0; first < capacity; first++) {
                assertThat(cache.lookup(key, 0, hash, 1, 1, first)).as("key %d, looked for at slot %d first", i,
                        first).isEqualTo(slot < 0 ? FlowCache.MISS : slot);
            }
            if (slot >= 0) {
                assertThat(cache.actionIndex(slot)).isEqualTo(i);
            }
        }
        int hashOfFirst = flow(0);
        int slotOfFirst = cache.find(key, 0, hashOfFirst);
        assertThat(slotOfFirst).as("flow 0 is cached").isGreaterThanOrEqualTo(0);
        int absent = flow(keys); // the key line now holds a key never installed
        for (int first = 0; first < capacity; first++) {
            assertThat(cache.lookup(key, 0, absent, 1, 1, first)).as("a key never installed, looked for at slot %d "
                    + "first", first).isEqualTo(FlowCache.MISS);
        }
        assertThat(cache.lookup(key, 0, hashOfFirst, 1, 1, slotOfFirst))
                .as("a slot with the key's signature but another key").isEqualTo(FlowCache.MISS);
    }

    private FlowCache cache(int capacity) {
        return new FlowCache(capacity, MIN, MAX, 42, counters, new ConnectionTable(256));
    }

    @Test
    void anInstalledFlowHitsWithItsActionAndCountsPackets() {
        FlowCache cache = cache(1024);
        int hash = flow(1);
        assertThat(cache.lookup(key, 0, hash, 1, 0)).isEqualTo(FlowCache.MISS);
        int slot = cache.install(key, 0, hash, 77, 1, 0);
        cache.count(slot, 64, 0, 0);
        int hit = cache.lookup(key, 0, hash, 1, 1_000);
        assertThat(hit).isEqualTo(slot);
        assertThat(cache.actionIndex(hit)).isEqualTo(77);
        assertThat(cache.lookup(key, 0, flow(2), 1, 1_000)).isEqualTo(FlowCache.MISS);
        assertThat(counters[FlowCache.HITS]).isEqualTo(1);
        assertThat(counters[FlowCache.MISSES]).isEqualTo(2);
        assertThat(counters[FlowCache.INSERTIONS]).isEqualTo(1);
        assertThat(counters[FlowCache.ENTRIES]).isEqualTo(1);
        TopFlowSelection top = new TopFlowSelection(1);
        top.begin();
        cache.offerBusiest(0, cache.capacity(), top, new ActionTable(128), 1);
        top.publish(0, 0);
        assertThat(top.tryRead().flows()).singleElement().satisfies(f -> {
            assertThat(f.packets()).isEqualTo(1);
            assertThat(f.bytes()).isEqualTo(64);
            assertThat(f.action()).as("index 77 of an empty table").startsWith("stale");
        });
    }

    @Test
    void ipv4AndIpv6FlowsInOneCacheHitCountAndReportTheirOwnKeys() {
        FlowCache cache = cache(1024);
        long[] v4 = OneField.SOURCE_PORT.words(1);
        long[] v6 = OneField.IPV6_SOURCE.words(1);
        int v4Slot = cache.install(key, 0, key(v4), 4, 1, 0);
        cache.countFirst(v4Slot, 100, 0, 0);
        int v6Slot = cache.install(key, 0, key(v6), 6, 1, 0);
        cache.countFirst(v6Slot, 200, 0, 0);
        for (int i = 0; i < 3; i++) {
            assertThat(cache.lookup(key, 0, key(v6), 1, 1)).isEqualTo(v6Slot);
            cache.count(v6Slot, 200, FlowKey.TCP_ACK, 1);
        }
        assertThat(cache.lookup(key, 0, key(v4), 1, 1)).isEqualTo(v4Slot);
        cache.count(v4Slot, 100, 0, 1);
        assertThat(cache.actionIndex(v4Slot)).isEqualTo(4);
        assertThat(cache.actionIndex(v6Slot)).isEqualTo(6);
        long[] otherV4 = OneField.SOURCE_PORT.words(2);
        assertThat(cache.lookup(key, 0, key(otherV4), 1, 1)).isEqualTo(FlowCache.MISS);

        TopFlowSelection top = new TopFlowSelection(2);
        top.begin();
        cache.offerBusiest(0, cache.capacity(), top, new ActionTable(128), 1);
        top.publish(0, 0);
        assertThat(top.tryRead().flows()).extracting(CachedFlow::flow, CachedFlow::packets, CachedFlow::bytes)
                .containsExactlyInAnyOrder(
                        tuple(FlowKey.describe(v4[0], v4[1], v4[2], v4[3], v4[4], v4[5]), 2L, 200L),
                        tuple(FlowKey.describe(v6[0], v6[1], v6[2], v6[3], v6[4], v6[5]), 4L, 800L));
    }

    @Test
    void ipv6KeysThatDifferOnlyInALowAddressWordNeverMatch() {
        FlowCache cache = cache(1024);
        long[] installed = OneField.IPV6_DESTINATION_HOST.words(1);
        int hash = key(installed);
        int slot = cache.install(key, 0, hash, 4, 1, 0);
        // the same signature (a lookup takes the hash it is given), another key: only the second line tells them apart
        for (long[] other : List.of(OneField.IPV6_DESTINATION_HOST.words(2), OneField.IPV6_SOURCE.words(2))) {
            key(other);
            assertThat(cache.lookup(key, 0, hash, 1, 1, slot)).isEqualTo(FlowCache.MISS);
        }
        key(installed);
        assertThat(cache.lookup(key, 0, hash, 1, 1, slot)).isEqualTo(slot);
    }

    @Test
    void anEntryFromAnOlderGenerationIsNeverApplied() {
        FlowCache cache = cache(1024);
        int hash = flow(1);
        cache.install(key, 0, hash, 5, 1, 0);
        assertThat(cache.lookup(key, 0, hash, 2, 10)).isEqualTo(FlowCache.STALE);
        assertThat(counters[FlowCache.REVALIDATIONS]).isEqualTo(1);
        int slot = cache.install(key, 0, hash, 6, 2, 10);
        assertThat(cache.actionIndex(cache.lookup(key, 0, hash, 2, 20))).isEqualTo(6);
        assertThat(counters[FlowCache.INSERTIONS]).as("revalidation reuses the slot").isEqualTo(1);
        assertThat(slot).isGreaterThanOrEqualTo(0);
    }

    @Test
    void anExpiredEntryIsRevalidated() {
        FlowCache cache = cache(1024);
        int hash = flow(1);
        int slot = cache.install(key, 0, hash, 5, 1, 0);
        int expiry = cache.expiryMillis(slot);
        assertThat(cache.lookup(key, 0, hash, 1, expiry - 1)).isEqualTo(slot);
        assertThat(cache.lookup(key, 0, hash, 1, expiry)).isEqualTo(FlowCache.STALE);
    }

    @Test
    void anEntryRestingOnAConnectionIsStaleOnceIdleForTheShortestConnectionTimeout() {
        FlowCache cache = cache(1024);
        int hash = flow(1);
        int slot = cache.install(key, 0, hash, 5, 1, 0, 42);
        int idle = ConnectionTable.SHORTEST_TIMEOUT_MILLIS;
        assertThat(cache.lookup(key, 0, hash, 1, idle - 1)).isEqualTo(slot);
        assertThat(cache.touch(slot, idle - 1)).as("42's registered entry: the connection reads its stamp")
                .isEqualTo(FlowCache.NO_CONNECTION);
        assertThat(cache.lookup(key, 0, hash, 1, 2 * idle - 2)).isEqualTo(slot);
        assertThat(cache.lookup(key, 0, hash, 1, 2 * idle - 1)).isEqualTo(FlowCache.STALE);

        int other = cache.install(key, 0, flow(2), 5, 1, 0);
        assertThat(cache.lookup(key, 0, flow(2), 1, 2 * idle)).as("no connection, no idle limit").isEqualTo(other);
        assertThat(cache.touch(other, 2 * idle)).isEqualTo(FlowCache.NO_CONNECTION);

        int second = cache.install(key, 0, flow(3), 5, 1, 0, 42);
        assertThat(cache.touch(second, 1)).as("a second entry on 42: the stamp moved, fold it into 42").isEqualTo(42);
        assertThat(cache.touch(second, 1)).as("same millisecond").isEqualTo(FlowCache.NO_CONNECTION);
    }

    @Test
    void aHitTakesItsActionAndStampFromTheWordsItsLookupRead() {
        FlowCache cache = cache(1024);
        int registered = cache.install(key, 0, flow(1), 5, 1, 0, 42);
        int second = cache.install(key, 0, flow(2), 9, 1, 0, 42);

        assertThat(cache.lookup(key, 0, flow(1), 1, 10)).isEqualTo(registered);
        assertThat(cache.hitActionIndex()).isEqualTo(5);
        assertThat(cache.touchHit(registered, 10)).as("42's registered entry").isEqualTo(FlowCache.NO_CONNECTION);

        flow(2);
        assertThat(cache.lookup(key, 0, flow(2), 1, 10)).isEqualTo(second);
        assertThat(cache.hitActionIndex()).isEqualTo(9);
        assertThat(cache.touchHit(second, 10)).as("a second entry on 42: the stamp moved").isEqualTo(42);
        assertThat(cache.lookup(key, 0, flow(2), 1, 10)).isEqualTo(second);
        assertThat(cache.touchHit(second, 10)).as("the lookup read this millisecond's stamp")
                .isEqualTo(FlowCache.NO_CONNECTION);
    }

    @Test
    void aForgottenEntryMisses() {
        FlowCache cache = cache(16);
        cache.install(key, 0, flow(1), 1, 1, 0);
        cache.forget(key, 0, flow(1));
        assertThat(cache.lookup(key, 0, flow(1), 1, 0)).isEqualTo(FlowCache.MISS);
        assertThat(counters[FlowCache.ENTRIES]).isZero();
    }

    @Test
    void stagedExpirySpreadsEntriesInstalledTogetherOverTheWindow() {
        int n = 60_000;
        FlowCache cache = cache(131_072);
        int[] perSecond = new int[MAX / 1000 + 1];
        for (int i = 0; i < n; i++) {
            int slot = cache.install(key, 0, flow(i), 1, 1, 0);
            int expiry = cache.expiryMillis(slot);
            assertThat(expiry).isBetween(MIN, MAX);
            perSecond[expiry / 1000]++;
        }
        int busiest = 0;
        for (int s = 0; s < perSecond.length; s++) {
            busiest = Math.max(busiest, perSecond[s]);
            if (s < MIN / 1000) {
                assertThat(perSecond[s]).isZero();
            }
        }
        assertThat(busiest).isLessThanOrEqualTo(2 * n / 60);
        assertThat(perSecond[MIN / 1000]).isPositive();
        assertThat(perSecond[MAX / 1000 - 1]).isPositive();
    }

    @Test
    void theSweepRetiresExpiredEntriesWithinItsBudget() {
        FlowCache cache = cache(64);
        for (int i = 0; i < 40; i++) {
            cache.install(key, 0, flow(i), 1, 1, 0);
        }
        long entries = counters[FlowCache.ENTRIES];
        assertThat(cache.sweep(MIN - 1, 64)).isZero();
        assertThat(cache.sweep(MAX + 1, 16)).isLessThanOrEqualTo(16);
        int retired = 0;
        for (int i = 0; i < 4; i++) {
            retired += cache.sweep(MAX + 1, 16);
        }
        assertThat(counters[FlowCache.ENTRIES]).isZero();
        assertThat(counters[FlowCache.EXPIRATIONS]).isEqualTo(entries);
        assertThat(retired).isPositive();
    }

    @Test
    void anEntryInstalledAfterASweepCycleExpiringBeforeWhatTheCycleSawIsStillRetired() {
        FlowCache cache = cache(64);
        int early = cache.expiryMillis(cache.install(key, 0, flow(0), 1, 1, 0));
        while (early < MIN + 10_000) { // an early entry with room for later ones to expire before it
            cache.forget(key, 0, flow(0));
            early = cache.expiryMillis(cache.install(key, 0, flow(0), 1, 1, 0));
        }
        assertThat(cache.sweep(1, 64)).isZero(); // nothing expires before the early entry
        int earliest = Integer.MAX_VALUE;
        for (int i = 1; i < 40; i++) {
            earliest = Math.min(earliest, cache.expiryMillis(cache.install(key, 0, flow(i), 1, 1, 2)));
        }
        assertThat(earliest).as("this seed's draws: a later install expires first").isLessThan(early);

        assertThat(cache.sweep(earliest - 1, 64)).isZero();
        assertThat(cache.sweep(earliest, 64)).isPositive();
        assertThat(cache.lookup(key, 0, flow(0), 1, earliest)).as("the early entry stays").isNotNegative();
    }

    @Test
    void entriesDisplacedWhileASweepCycleRunsAreRetiredWithinACycleOfTheirExpiry() {
        int capacity = 4_096;
        int keys = capacity * 95 / 100; // beyond first fit: installs move entries across the sweep's cursor
        FlowCache cache = cache(capacity);
        for (int i = 0; i < keys / 2; i++) {
            cache.install(key, 0, flow(i), 1, 1, 0);
        }
        int later = MIN + 10_000; // some of the first half expired: the sweep runs while the rest is installed
        for (int i = keys / 2; i < keys; i++) {
            cache.install(key, 0, flow(i), 1, 1, later);
            if (i % 16 == 0) {
                cache.sweep(later, 64);
            }
        }
        int now = later + (MIN + MAX) / 2;
        for (int i = 0; i < capacity / 64; i++) {
            cache.sweep(now, 64); // one cycle, in slices
        }

        int resident = 0;
        for (int i = 0; i < keys; i++) {
            int slot = cache.find(key, 0, flow(i));
            if (slot >= 0) {
                assertThat(cache.expiryMillis(slot) - now).as("flow %d is resident, so not expired", i).isPositive();
                resident++;
            }
        }
        assertThat(resident).isPositive().isEqualTo((int) counters[FlowCache.ENTRIES]);
        assertThat(resident + counters[FlowCache.EXPIRATIONS] + counters[FlowCache.EVICTIONS]).isEqualTo(keys);
    }

    @Test
    void aFullCacheEvictsTheEntryNearestToExpiry() {
        FlowCache cache = cache(4);
        for (int i = 0; i < 4; i++) {
            cache.install(key, 0, flow(i), 1, 1, i * 10);
        }
        assertThat(counters[FlowCache.EVICTIONS]).isZero();
        int earliest = Integer.MAX_VALUE;
        int victim = -1;
        for (int i = 0; i < 4; i++) {
            int slot = cache.lookup(key, 0, flow(i), 1, 100);
            if (cache.expiryMillis(slot) < earliest) {
                earliest = cache.expiryMillis(slot);
                victim = i;
            }
        }
        cache.install(key, 0, flow(100), 1, 1, 100);
        assertThat(counters[FlowCache.EVICTIONS]).isEqualTo(1);
        assertThat(counters[FlowCache.ENTRIES]).isEqualTo(4);
        assertThat(cache.lookup(key, 0, flow(victim), 1, 100)).isEqualTo(FlowCache.MISS);
        assertThat(cache.lookup(key, 0, flow(100), 1, 100)).isGreaterThanOrEqualTo(0);
    }

    @Test
    void insertionThatDisplacesEntriesAllocatesNothing() {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        FlowCache cache = cache(4_096);
        int keys = 4_096 * 95 / 100; // beyond what first-fit holds without evicting: entries must be displaced
        // warmed up until the JIT has compiled the displacement: after one fill, a measured fill once allocated 376 B
        for (int round = 0; round < 20; round++) {
            fill(cache, keys);
            cache.flush();
        }
        java.util.Arrays.fill(counters, 0);
        long before = threads.getCurrentThreadAllocatedBytes();
        fill(cache, keys);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(counters[FlowCache.EVICTIONS]).isZero();
        assertThat(counters[FlowCache.ENTRIES]).isEqualTo(keys);
        assertThat(allocated).isZero();
    }

    private void fill(FlowCache cache, int keys) {
        for (int i = 0; i < keys; i++) {
            cache.install(key, 0, flow(i), 1, 1, 0);
        }
    }

    @Test
    void anExpiredEntryMakesRoomWithoutAnEviction() {
        FlowCache cache = cache(4);
        for (int i = 0; i < 4; i++) {
            cache.install(key, 0, flow(i), 1, 1, 0);
        }
        cache.install(key, 0, flow(100), 1, 1, MAX + 1);
        assertThat(counters[FlowCache.EVICTIONS]).isZero();
        assertThat(counters[FlowCache.EXPIRATIONS]).isEqualTo(1);
        assertThat(counters[FlowCache.ENTRIES]).isEqualTo(4);
        assertThat(cache.lookup(key, 0, flow(100), 1, MAX + 1)).isGreaterThanOrEqualTo(0);
    }

    @Test
    void flushEmptiesTheCache() {
        FlowCache cache = cache(16);
        cache.install(key, 0, flow(1), 1, 1, 0);
        cache.flush();
        assertThat(cache.lookup(key, 0, flow(1), 1, 0)).isEqualTo(FlowCache.MISS);
        assertThat(counters[FlowCache.ENTRIES]).isZero();
    }

    @Test
    void capacityMustBeAPowerOfTwoInRange() {
        assertThatThrownBy(() -> cache(1000)).hasMessageContaining("power of two");
        assertThatThrownBy(() -> cache(2)).hasMessageContaining("power of two");
        assertThatThrownBy(() -> cache(1 << 20)).hasMessageContaining("524288");
        assertThat(cache(524_288).capacity()).isEqualTo(524_288);
    }
}
