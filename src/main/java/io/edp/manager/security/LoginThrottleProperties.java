package io.edp.manager.security;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How failed logins slow down guessing, per client address and user name.
 *
 * @param freeFailures failed logins in a row that are only answered 401; the next ones wait
 * @param initialDelay the wait after the last free failure, doubled by each further one …
 * @param maxDelay     … up to this
 */
@ConfigurationProperties("edp.security.login")
public record LoginThrottleProperties(@DefaultValue("5") int freeFailures, @DefaultValue("1s") Duration initialDelay,
                                      @DefaultValue("1m") Duration maxDelay) {

    public LoginThrottleProperties {
        if (freeFailures < 1 || !initialDelay.isPositive() || maxDelay.compareTo(initialDelay) < 0) {
            throw new IllegalArgumentException("edp.security.login needs free-failures >= 1 and 0 < initial-delay "
                    + "<= max-delay: " + freeFailures + ", " + initialDelay + ", " + maxDelay);
        }
    }

    /** The wait after {@code failures} failed logins in a row; zero while they are free. */
    Duration delayAfter(int failures) {
        if (failures < freeFailures) {
            return Duration.ZERO;
        }
        int doublings = Math.min(failures - freeFailures, 30);
        var delay = initialDelay.multipliedBy(1L << doublings);
        return delay.compareTo(maxDelay) > 0 ? maxDelay : delay;
    }
}
