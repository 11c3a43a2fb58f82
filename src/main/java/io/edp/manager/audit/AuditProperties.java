package io.edp.manager.audit;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import jakarta.validation.constraints.NotNull;

/**
 * @param retention how long audit events are kept; older ones are deleted hourly
 */
@ConfigurationProperties("edp.audit")
@Validated
public record AuditProperties(@DefaultValue("90d") @NotNull Duration retention) {

    public AuditProperties {
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("edp.audit.retention must be positive, not " + retention);
        }
    }
}
