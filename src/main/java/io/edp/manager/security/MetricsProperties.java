package io.edp.manager.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;

/**
 * Who may read {@code /actuator/prometheus}: its series name every host, so by default a viewer or operator.
 *
 * @param open {@code edp.metrics.public}: anyone, for a lab whose scraper carries no credentials
 */
@ConfigurationProperties("edp.metrics")
public record MetricsProperties(@Name("public") @DefaultValue("false") boolean open) {
}
