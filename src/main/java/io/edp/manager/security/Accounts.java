package io.edp.manager.security;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/**
 * Turns the configured accounts into users with hashed passwords. Only hashes are kept; a configured password is
 * never logged, and a generated one is logged exactly once, here, because nobody could log in otherwise.
 */
final class Accounts {

    static final String OPERATOR = "OPERATOR";
    static final String VIEWER = "VIEWER";

    private static final Logger log = LoggerFactory.getLogger(Accounts.class);
    private static final Pattern ENCODED = Pattern.compile("^\\{[A-Za-z0-9_-]+}.+");
    private static final SecureRandom random = new SecureRandom();

    private Accounts() {
    }

    static InMemoryUserDetailsManager userDetails(AccountProperties properties, PasswordEncoder encoder) {
        var operator = properties.operator();
        if (!operator.hasUser()) {
            throw new IllegalStateException("edp.security.operator.user (EDP_OPERATOR_USER) must not be empty");
        }
        var users = new ArrayList<UserDetails>();
        var operatorHash = operator.hasPassword()
                ? hash(operator.password(), encoder)
                : encoder.encode(generatedPassword(operator.user()));
        users.add(User.withUsername(operator.user()).password(operatorHash).roles(OPERATOR).build());

        var viewer = properties.viewer();
        if (viewer.hasUser() && viewer.hasPassword()) {
            if (viewer.user().equals(operator.user())) {
                throw new IllegalStateException("the viewer and the operator must have different user names");
            }
            var viewerHash = hash(viewer.password(), encoder);
            users.add(User.withUsername(viewer.user()).password(viewerHash).roles(VIEWER).build());
        } else if (viewer.hasUser() || viewer.hasPassword()) {
            log.warn("Viewer account ignored: set both EDP_VIEWER_USER and EDP_VIEWER_PASSWORD");
        }
        return new InMemoryUserDetailsManager(users);
    }

    private static String hash(String password, PasswordEncoder encoder) {
        return ENCODED.matcher(password).matches() ? password : encoder.encode(password);
    }

    private static String generatedPassword(String user) {
        var bytes = new byte[24]; // 192 bits
        random.nextBytes(bytes);
        var password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        log.warn("""

                No operator password configured (EDP_OPERATOR_PASSWORD). Generated one for this run only:
                    user: {}   password: {}
                It is not stored or shown again; set EDP_OPERATOR_PASSWORD to choose your own.
                """, user, password);
        return password;
    }
}
