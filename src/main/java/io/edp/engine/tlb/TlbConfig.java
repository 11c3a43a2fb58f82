package io.edp.engine.tlb;

import io.edp.engine.config.ConfigRules;
import java.time.Duration;
import java.util.Objects;

/**
 * Thread Load Balancer settings.
 *
 * @param enabled              run the balancer at all
 * @param interval             how often loads are read (NSX: 4 s)
 * @param threshold            utilization at or over which a worker triggers a rebalance
 * @param improvementThreshold minimum relative reduction of the peak for a plan to be applied (0.10 = 10 %)
 * @param minTimeBetweenMoves  quiet time after applying a plan, so loads are measured again before the next
 * @param historySize          decisions kept for stats
 */
public record TlbConfig(boolean enabled, Duration interval, double threshold, double improvementThreshold,
                        Duration minTimeBetweenMoves, int historySize) {

    public static final TlbConfig DEFAULTS =
            new TlbConfig(true, Duration.ofSeconds(4), 0.70, 0.10, Duration.ofSeconds(30), 64);

    /** The defaults, switched off: what an engine built without TLB settings runs (it moves no queue by itself). */
    public static final TlbConfig DISABLED = DEFAULTS.withEnabled(false);

    public TlbConfig {
        Objects.requireNonNull(interval, "TLB interval is required");
        Objects.requireNonNull(minTimeBetweenMoves, "TLB minimum time between moves is required");
        ConfigRules.require(ConfigRules.tlb(interval, threshold, improvementThreshold));
        if (minTimeBetweenMoves.isNegative()) {
            throw new IllegalArgumentException("minimum time between moves must be >= 0: " + minTimeBetweenMoves);
        }
        if (historySize < 1) {
            throw new IllegalArgumentException("TLB history keeps at least one decision: " + historySize);
        }
    }

    public TlbConfig withEnabled(boolean on) {
        return new TlbConfig(on, interval, threshold, improvementThreshold, minTimeBetweenMoves, historySize);
    }

    public TlbConfig withThreshold(double utilization) {
        return new TlbConfig(enabled, interval, utilization, improvementThreshold, minTimeBetweenMoves, historySize);
    }

    public TlbConfig withInterval(Duration newInterval) {
        return new TlbConfig(enabled, newInterval, threshold, improvementThreshold, minTimeBetweenMoves, historySize);
    }

    public TlbConfig withMinTimeBetweenMoves(Duration quiet) {
        return new TlbConfig(enabled, interval, threshold, improvementThreshold, quiet, historySize);
    }
}
