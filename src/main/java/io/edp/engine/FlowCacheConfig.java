package io.edp.engine;

import io.edp.engine.config.ConfigRules;
import io.edp.engine.fastpath.FlowCache;
import java.time.Duration;

/** Per-worker flow cache size (power of two, 4..524,288) and the staged-expiry window. */
public record FlowCacheConfig(int capacity, Duration minExpiry, Duration maxExpiry) {

    public static final FlowCacheConfig DEFAULT =
            new FlowCacheConfig(FlowCache.DEFAULT_CAPACITY, Duration.ofSeconds(90), Duration.ofSeconds(150));

    public FlowCacheConfig {
        ConfigRules.require(ConfigRules.flowCacheCapacity(capacity));
        ConfigRules.require(ConfigRules.expiryWindow(minExpiry, maxExpiry));
    }

    public FlowCacheConfig withCapacity(int entries) {
        return new FlowCacheConfig(entries, minExpiry, maxExpiry);
    }
}
