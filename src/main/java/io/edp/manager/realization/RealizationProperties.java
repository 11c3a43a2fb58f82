package io.edp.manager.realization;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the reconciler pushes desired state to the engines.
 *
 * @param sweepInterval how often it looks for due work without being woken (retries, missed notifications)
 * @param retryInitial  wait before the first retry of a failed push; doubled per further failure …
 * @param retryMax      … up to this
 * @param lease         how long a claimed host stays IN_PROGRESS before another replica may take it over (a
 *                      replica that died mid-push)
 * @param parallelism   pushes in flight at most, at start-up and after; 0 (the default): the number of CPUs
 */
@ConfigurationProperties("edp.realization")
public record RealizationProperties(@DefaultValue("1s") Duration sweepInterval,
                                    @DefaultValue("250ms") Duration retryInitial,
                                    @DefaultValue("30s") Duration retryMax,
                                    @DefaultValue("30s") Duration lease,
                                    @DefaultValue("0") int parallelism) {

    public RealizationProperties {
        if (sweepInterval.isNegative() || sweepInterval.isZero() || retryInitial.isNegative()
                || retryMax.compareTo(retryInitial) < 0 || lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("edp.realization: sweep-interval and lease must be positive, "
                    + "0 <= retry-initial <= retry-max");
        }
        if (parallelism < 0) {
            throw new IllegalArgumentException("edp.realization.parallelism must be >= 0 (0: the number of CPUs)");
        }
        if (parallelism == 0) {
            parallelism = Runtime.getRuntime().availableProcessors();
        }
    }
}
