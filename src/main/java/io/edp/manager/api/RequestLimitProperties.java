package io.edp.manager.api;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Limits on what a request may carry.
 *
 * @param maxBodySize the largest request body accepted; larger ones are answered with 413
 */
@ConfigurationProperties("edp.requests")
public record RequestLimitProperties(@DefaultValue("1MB") DataSize maxBodySize) {

    public RequestLimitProperties {
        if (maxBodySize.toBytes() < 1024) {
            throw new IllegalArgumentException("edp.requests.max-body-size must be at least 1KB: " + maxBodySize);
        }
    }
}
