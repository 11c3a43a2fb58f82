package io.edp.engine.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.ConnectionTable;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every packet a flow cache counts is exported exactly once, whatever ends its entry's counting: active and idle
 * timeouts, expiry (by the sweep or reused at insertion), eviction, revalidation under a new generation, forget,
 * flush, export turned off. Random sequences of packets over more flows than the cache holds, IPv4 and IPv6, with
 * the ledger of what was counted compared to the records drained from the ring, and each record's flow key.
 */
class FlowCacheExportTest {

    private static final int FLOWS = 96;
    private static final int KEY_BYTES = 48;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void noPacketIsLostFromOrCountedTwiceInTheExport(long seed) {
        Random random = new Random(seed);
        MemorySegment keys = Arena.ofAuto().allocate((long) FLOWS * KEY_BYTES);
        int[] hashes = new int[FLOWS];
        for (int f = 0; f < FLOWS; f++) {
            long[] w = f % 2 == 0
                    ? new long[] {0x0A00_0000_0000_0000L | ((long) f << 32), 0, 0x0A80_0000_0000_0000L, 0,
                        FlowKey.l4Word(1024 + f, 5001, FlowKey.PROTO_UDP, 4, 0), FlowKey.l2Word(0x02EDL, 0)}
                    : new long[] {0xFD00_0000_0000_0000L | f, f, 0xFD01_0000_0000_0000L, 1,
                        FlowKey.l4Word(1024 + f, 5001, FlowKey.PROTO_UDP, 6, 0), FlowKey.l2Word(0x02EDL, 0)};
            for (int i = 0; i < 6; i++) {
                keys.set(ValueLayout.JAVA_LONG_UNALIGNED, (long) f * KEY_BYTES + 8L * i, w[i]);
            }
            hashes[f] = FlowKey.hash(w[0], w[1], w[2], w[3], w[4], w[5]);
        }
        FlowRecords records = new FlowRecords(1024);
        // odd seeds: flows time out and entries expire before the cache fills; even ones: it fills and evicts
        // entries that still hold counters
        long[] counters = new long[FlowCache.COUNTER_COUNT];
        ConnectionTable connections = new ConnectionTable(256);
        FlowCache cache = seed % 2 == 1 ? new FlowCache(32, 60, 120, seed, counters, connections)
                : new FlowCache(32, 5_000, 10_000, seed, counters, connections);
        int active = seed % 2 == 1 ? 40 : 1_000_000;
        int idle = seed % 2 == 1 ? 25 : 1_000_000;
        cache.exportTo(records, active, idle);
        long[] counted = new long[FLOWS];
        long[] exported = new long[FLOWS];
        long[] exportedBytes = new long[FLOWS];
        int generation = 1;
        int now = 0;
        for (int step = 0; step < 20_000; step++) {
            now += random.nextInt(4);
            int f = random.nextInt(random.nextBoolean() ? 8 : FLOWS); // some flows busy, most not
            long key = (long) f * KEY_BYTES;
            int slot = cache.lookup(keys, key, hashes[f], generation, now);
            if (slot < 0) {
                slot = cache.install(keys, key, hashes[f], 1, generation, now);
                cache.label(slot, 7, 2);
            }
            cache.count(slot, 100 + f, 0, now);
            counted[f]++;
            cache.touch(slot, now);
            cache.sweep(now, 2);
            switch (random.nextInt(2_000)) {
                case 0 -> cache.flush();
                case 1 -> generation++; // every entry revalidates
                case 2 -> cache.forget(keys, key, hashes[f]);
                case 3 -> {
                    cache.exportTo(null, active, idle); // export off: what was counted goes out first
                    drain(records, keys, hashes, exported, exportedBytes);
                    for (int i = 0; i < FLOWS; i++) {
                        counted[i] = exported[i];
                    }
                    cache.exportTo(records, active, idle);
                }
                default -> { }
            }
            drain(records, keys, hashes, exported, exportedBytes);
        }
        cache.flush();
        drain(records, keys, hashes, exported, exportedBytes);

        assertThat(counters[seed % 2 == 1 ? FlowCache.EXPIRATIONS : FlowCache.EVICTIONS]).isPositive();
        assertThat(records.dropped()).isZero();
        assertThat(exported).isEqualTo(counted);
        for (int f = 0; f < FLOWS; f++) {
            assertThat(exportedBytes[f]).isEqualTo(exported[f] * (100 + f));
        }
    }

    private static void drain(FlowRecords records, MemorySegment keys, int[] hashes, long[] packets, long[] bytes) {
        int n = records.available();
        long[] words = records.words();
        for (int i = 0; i < n; i++) {
            int at = records.at(i);
            int f = FlowKey.srcPort(words[at + 4]) - 1024;
            for (int w = 0; w < 6; w++) {
                assertThat(words[at + w]).isEqualTo(keys.get(ValueLayout.JAVA_LONG_UNALIGNED, (long) f * KEY_BYTES
                        + 8L * w));
            }
            assertThat(FlowRecords.ruleId(words[at + 9])).isEqualTo(7);
            assertThat(FlowRecords.outPort(words[at + 9])).isEqualTo(2);
            assertThat(words[at + 6]).isPositive();
            packets[f] += words[at + 6];
            bytes[f] += words[at + 7];
        }
        records.release(n);
    }
}
