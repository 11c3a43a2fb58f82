package io.edp.manager.stats;

import io.edp.engine.EngineStats;
import io.swagger.v3.oas.annotations.media.Schema;

/** A flow cache's counters, of one worker or summed over all. */
@Schema(description = "Flow-cache counters (cumulative since the engine started)")
record FlowCacheCounters(
        @Schema(description = "Packets that found their flow's entry current", example = "9990000") long hits,
        @Schema(description = "Lookups that found no usable entry", example = "10000") long misses,
        @Schema(description = "Packets that ran the IOChain (misses, revalidations, LEGACY, E1000, TCP SYN/FIN/RST)",
                example = "10000") long slowPath,
        @Schema(description = "Entries the slow path installed", example = "10000") long insertions,
        @Schema(description = "Entries the slow path could not install", example = "0") long insertionFailures,
        @Schema(description = "Entries replaced because their bucket was full", example = "0") long evictions,
        @Schema(description = "Entries retired by staged expiry", example = "0") long expirations,
        @Schema(description = "Hits on stale or expired entries re-checked through the slow path", example = "0")
        long revalidations,
        @Schema(description = "Entries held now", example = "10000") long entries,
        @Schema(description = "Entries the cache can hold (flowCacheSize per worker)", example = "131072")
        long capacity,
        @Schema(description = "entries / capacity, in percent (rounded down)", example = "7") int occupancyPercent,
        @Schema(description = "NSX occupancy bucket: the highest of 0, 25, 50, 75, 90, 95 % reached", example = "0")
        int occupancyBucket,
        @Schema(description = "Fast-path hits the live verifier re-evaluated through the slow path "
                + "(verifierSampleRate)", example = "9990") long verifierChecks,
        @Schema(description = "Checked hits whose cached action differs from the slow path's (see /stats/verifier)",
                example = "0") long verifierMismatches) {

    static final int[] BUCKETS = {0, 25, 50, 75, 90, 95};

    static FlowCacheCounters of(EngineStats.FlowCacheStats c) {
        int percent = c.capacity() == 0 ? 0 : (int) (c.entries() * 100 / c.capacity());
        return new FlowCacheCounters(c.hits(), c.misses(), c.slowPath(), c.insertions(), c.insertionFailures(),
                c.evictions(), c.expirations(), c.revalidations(), c.entries(), c.capacity(), percent,
                bucket(percent), c.verifierChecks(), c.verifierMismatches());
    }

    static int bucket(int percent) {
        int bucket = 0;
        for (int threshold : BUCKETS) {
            if (percent >= threshold) {
                bucket = threshold;
            }
        }
        return bucket;
    }
}
