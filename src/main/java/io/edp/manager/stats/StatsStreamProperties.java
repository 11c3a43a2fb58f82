package io.edp.manager.stats;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The statistics streams ({@code /stats/stream}).
 *
 * @param maxStreams streams open at once over all hosts; one more is answered 503. Each holds an HTTP connection and
 *                   costs a snapshot per interval, so a forgotten dashboard cannot multiply without bound
 */
@ConfigurationProperties("edp.stats-stream")
public record StatsStreamProperties(@DefaultValue("32") int maxStreams) {

    public StatsStreamProperties {
        if (maxStreams < 1) {
            throw new IllegalArgumentException("edp.stats-stream.max-streams must be at least 1: " + maxStreams);
        }
    }
}
