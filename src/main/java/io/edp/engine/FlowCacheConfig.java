package io.edp.engine;

import io.edp.engine.fastpath.FlowCache;
import java.time.Duration;

/** Per-worker flow cache size (power of two, 4..524,288) and the staged-expiry window. */
public record FlowCacheConfig(int capacity, Duration minExpiry, Duration maxExpiry) {

    public static final FlowCacheConfig DEFAULT =
            new FlowCacheConfig(FlowCache.DEFAULT_CAPACITY, Duration.ofSeconds(90), Duration.ofSeconds(150));

    public FlowCacheConfig {
        if (capacity < FlowCache.MIN_CAPACITY || capacity > FlowCache.MAX_CAPACITY || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("flowCache.capacity must be a power of two in [" + FlowCache.MIN_CAPACITY
                    + ", " + FlowCache.MAX_CAPACITY + "]: " + capacity);
        }
        if (minExpiry == null || maxExpiry == null || minExpiry.toMillis() <= 0 || maxExpiry.compareTo(minExpiry) < 0
                || maxExpiry.toDays() > 7) {
            throw new IllegalArgumentException("flowCache expiry window must satisfy "
                    + "0 < minExpiry <= maxExpiry <= 7 days: " + minExpiry + ".." + maxExpiry);
        }
    }

    public FlowCacheConfig withCapacity(int entries) {
        return new FlowCacheConfig(entries, minExpiry, maxExpiry);
    }
}
