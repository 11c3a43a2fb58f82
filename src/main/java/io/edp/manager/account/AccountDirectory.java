package io.edp.manager.account;

import java.util.Locale;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.stereotype.Component;

/**
 * Looks named accounts up for authentication (the security configuration's user-details service asks here for every
 * name that is not a bootstrap account; not a {@code UserDetailsService} bean itself, which would make two), in the
 * database on every request: no cache, so that disabling an account or changing its role or password takes effect from
 * its next request, on every replica. The lookup is one primary-key read; BCrypt's cost is what
 * {@code VerifiedPasswordCache} saves, keyed by the hash, which a new password replaces.
 */
@Component
public class AccountDirectory {

    private final JdbcClient jdbc;

    AccountDirectory(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The account named {@code name}, disabled or not; {@link UsernameNotFoundException} when there is none. */
    public UserDetails loadUserByUsername(String name) {
        // names are stored in lower case; logins match case-insensitively, like the bootstrap accounts'
        return jdbc.sql("SELECT name, role, password_hash, enabled FROM account WHERE name = :name")
                .param("name", name.toLowerCase(Locale.ROOT))
                .query((rs, rowNum) -> User.withUsername(rs.getString("name"))
                        .password(rs.getString("password_hash"))
                        .roles(rs.getString("role"))
                        .disabled(!rs.getBoolean("enabled"))
                        .build())
                .optional()
                .orElseThrow(() -> new UsernameNotFoundException("no account named " + name));
    }
}
