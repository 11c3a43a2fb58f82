package io.edp.engine;

import io.edp.engine.config.ConfigRules;
import io.edp.engine.fastpath.FlowCache;
import java.time.Duration;

/**
 * Per-worker flow cache size (power of two, 4..524,288), the staged-expiry window, and the live verifier's sample
 * rate: one fast-path hit in {@code verifierSampleRate} is re-evaluated by the slow path and compared (0 = off,
 * at most {@link ConfigRules#MAX_VERIFIER_SAMPLE_RATE}).
 */
public record FlowCacheConfig(int capacity, Duration minExpiry, Duration maxExpiry, int verifierSampleRate) {

    public static final FlowCacheConfig DEFAULT =
            new FlowCacheConfig(FlowCache.DEFAULT_CAPACITY, Duration.ofSeconds(90), Duration.ofSeconds(150));

    public FlowCacheConfig {
        ConfigRules.require(ConfigRules.flowCacheCapacity(capacity));
        ConfigRules.require(ConfigRules.expiryWindow(minExpiry, maxExpiry));
        ConfigRules.require(ConfigRules.verifierSampleRate(verifierSampleRate));
    }

    /** The verifier off. */
    public FlowCacheConfig(int capacity, Duration minExpiry, Duration maxExpiry) {
        this(capacity, minExpiry, maxExpiry, 0);
    }

    public FlowCacheConfig withCapacity(int entries) {
        return new FlowCacheConfig(entries, minExpiry, maxExpiry, verifierSampleRate);
    }

    public FlowCacheConfig withVerifierSampleRate(int rate) {
        return new FlowCacheConfig(capacity, minExpiry, maxExpiry, rate);
    }
}
