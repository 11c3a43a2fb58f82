package io.edp.manager.api;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How API requests share the database when it is slow or away. How long one request waits for a connection is the
 * pool's {@code spring.datasource.hikari.connection-timeout} (application.yaml: 3 s).
 *
 * @param concurrentRequests API requests that may work on the database at once; more are answered 503 at once, so
 *                           that requests waiting on the database hold fewer than Tomcat's request threads (200)
 *                           while the probes and the data path's statistics (which never touch it) keep answering
 * @param retryAfter         what a 503 tells the client to wait before trying again ({@code Retry-After})
 */
@ConfigurationProperties("edp.database")
public record DatabaseRequestProperties(@DefaultValue("100") int concurrentRequests,
                                        @DefaultValue("5s") Duration retryAfter) {

    public DatabaseRequestProperties {
        if (concurrentRequests < 1) {
            throw new IllegalArgumentException("edp.database.concurrent-requests must be at least 1");
        }
        if (retryAfter.toSeconds() < 1) {
            throw new IllegalArgumentException("edp.database.retry-after must be at least 1s");
        }
    }
}
