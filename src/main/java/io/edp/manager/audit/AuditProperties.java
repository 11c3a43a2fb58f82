package io.edp.manager.audit;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param retention how long audit events are kept; older ones are deleted hourly
 */
@ConfigurationProperties("edp.audit")
public record AuditProperties(@DefaultValue("90d") Duration retention) {

    public AuditProperties {
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("edp.audit.retention must be positive, not " + retention);
        }
    }
}
