package io.edp.manager.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.StringUtils;

/**
 * The API's accounts. application.yaml maps the environment variables {@code EDP_OPERATOR_USER},
 * {@code EDP_OPERATOR_PASSWORD}, {@code EDP_VIEWER_USER} and {@code EDP_VIEWER_PASSWORD} onto these properties.
 *
 * @param operator reads and writes; without a password one is generated at start-up
 * @param viewer   reads only; exists only when both its user and password are set
 */
@ConfigurationProperties("edp.security")
public record AccountProperties(@DefaultValue Account operator, @DefaultValue Account viewer) {

    /**
     * @param user     the user name
     * @param password plain text, or already encoded with an id prefix such as {@code {bcrypt}$2a$10$...}
     */
    public record Account(String user, String password) {

        boolean hasUser() {
            return StringUtils.hasText(user);
        }

        boolean hasPassword() {
            return StringUtils.hasText(password);
        }
    }
}
