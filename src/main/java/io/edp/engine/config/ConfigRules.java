package io.edp.engine.config;

import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.slowpath.ConnectionTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The rules an engine's settings must satisfy, as one rule set: the configuration records' constructors throw on
 * the first broken rule, and a control plane calls the same methods when a user writes settings, so that what it
 * accepts an engine can run. Each method returns every broken rule, each naming its field.
 */
public final class ConfigRules {

    /** One broken rule: the field (as the engine's configuration names it) and why, without the field's name. */
    public record Violation(String field, String message) {
        @Override
        public String toString() {
            return field + ": " + message;
        }
    }

    /** Worker threads an engine runs at most. */
    public static final int MAX_WORKERS = 64;

    private ConfigRules() {
    }

    /** Worker threads per NUMA node: ids and counts >= 0, 1 to {@link #MAX_WORKERS} in all. */
    public static List<Violation> workers(Map<Integer, Integer> perNumaNode) {
        var violations = new ArrayList<Violation>();
        long total = 0;
        for (Map.Entry<Integer, Integer> e : perNumaNode.entrySet()) {
            if (e.getKey() == null || e.getValue() == null || e.getKey() < 0 || e.getValue() < 0) {
                violations.add(new Violation("workersPerNumaNode", "node and count must be >= 0: " + e));
            } else {
                total += e.getValue();
            }
        }
        if (violations.isEmpty() && (total < 1 || total > MAX_WORKERS)) {
            violations.add(new Violation("workersPerNumaNode",
                    "total workers must be 1.." + MAX_WORKERS + ": " + total));
        }
        return violations;
    }

    /**
     * Flow-cache entries per worker: a power of two in [{@link FlowCache#MIN_CAPACITY},
     * {@link FlowCache#MAX_CAPACITY}].
     */
    public static List<Violation> flowCacheCapacity(int capacity) {
        if (capacity < FlowCache.MIN_CAPACITY || capacity > FlowCache.MAX_CAPACITY
                || Integer.bitCount(capacity) != 1) {
            return List.of(new Violation("flowCache.capacity", "must be a power of two in ["
                    + FlowCache.MIN_CAPACITY + ", " + FlowCache.MAX_CAPACITY + "]: " + capacity));
        }
        return List.of();
    }

    /** The largest verifier sample rate: one fast-path hit in a million. */
    public static final int MAX_VERIFIER_SAMPLE_RATE = 1_000_000;

    /** The live verifier's sample rate: 0 (off) or one hit in N, N in [1, {@link #MAX_VERIFIER_SAMPLE_RATE}]. */
    public static List<Violation> verifierSampleRate(int rate) {
        if (rate < 0 || rate > MAX_VERIFIER_SAMPLE_RATE) {
            return List.of(new Violation("flowCache.verifierSampleRate", "must be in [0, "
                    + MAX_VERIFIER_SAMPLE_RATE + "] (0 = off): " + rate));
        }
        return List.of();
    }

    /** The staged-expiry window: 0 < minExpiry <= maxExpiry <= 7 days. */
    public static List<Violation> expiryWindow(Duration minExpiry, Duration maxExpiry) {
        if (minExpiry == null || maxExpiry == null || minExpiry.toMillis() <= 0 || maxExpiry.compareTo(minExpiry) < 0
                || maxExpiry.toDays() > 7) {
            return List.of(new Violation("flowCache.minExpiry", "expiry window must satisfy "
                    + "0 < minExpiry <= maxExpiry <= 7 days: " + minExpiry + ".." + maxExpiry));
        }
        return List.of();
    }

    /** The Thread Load Balancer: a positive interval, threshold in (0, 1], improvement threshold in [0, 1). */
    public static List<Violation> tlb(Duration interval, double threshold, double improvementThreshold) {
        var violations = new ArrayList<Violation>();
        if (interval == null || interval.isNegative() || interval.isZero()) {
            violations.add(new Violation("tlb.interval", "must be positive: " + interval));
        }
        if (!(threshold > 0 && threshold <= 1)) {
            violations.add(new Violation("tlb.threshold", "must be in (0, 1]: " + threshold));
        }
        if (!(improvementThreshold >= 0 && improvementThreshold < 1)) {
            violations.add(new Violation("tlb.improvementThreshold", "must be in [0, 1): " + improvementThreshold));
        }
        return violations;
    }

    /**
     * The engine's shared memory: connection-table slots (a power of two in [256, 2^28]) and packet buffers
     * (&ge; 1024).
     */
    public static List<Violation> memory(int conntrackCapacity, int mbufs) {
        var violations = new ArrayList<Violation>();
        if (conntrackCapacity < 256 || conntrackCapacity > ConnectionTable.MAX_CAPACITY
                || Integer.bitCount(conntrackCapacity) != 1) {
            violations.add(new Violation("conntrackCapacity", "must be a power of two in [256, "
                    + ConnectionTable.MAX_CAPACITY + "]: " + conntrackCapacity));
        }
        if (mbufs < 1024) {
            violations.add(new Violation("mbufs", "must be >= 1024: " + mbufs));
        }
        return violations;
    }

    /** Throws the first violation as an {@link IllegalArgumentException} ("field: why"). */
    public static void require(List<Violation> violations) {
        if (!violations.isEmpty()) {
            throw new IllegalArgumentException(violations.getFirst().toString());
        }
    }
}
