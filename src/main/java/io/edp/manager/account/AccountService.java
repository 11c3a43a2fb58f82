package io.edp.manager.account;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import io.edp.manager.api.ConflictException;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.api.SqlPages;
import io.edp.manager.api.SqlPages.Filter;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Named accounts: created and changed by operators, stored with a BCrypt hash of their password. There is no delete:
 * an account is disabled instead, so that a name in the audit trail always names the same person.
 */
@Service
@Transactional
class AccountService {

    private static final String SELECT = "SELECT name, role, enabled, created_at, version FROM account";
    private static final Pattern NAME_PATTERN = Pattern.compile(AccountRequest.NAME);

    private final JdbcClient jdbc;
    private final PasswordEncoder encoder;
    private final UserDetailsService everyAccount;

    /** @param everyAccount what authentication asks: the bootstrap accounts of the environment, then the named ones */
    AccountService(JdbcClient jdbc, PasswordEncoder encoder, UserDetailsService everyAccount) {
        this.jdbc = jdbc;
        this.encoder = encoder;
        this.everyAccount = everyAccount;
    }

    AccountResponse create(AccountRequest request) {
        var hash = hash(request.password());
        // the environment's accounts are not in the table; the insert catches two creates racing
        if (exists(request.name()) || jdbc.sql("""
                        INSERT INTO account (name, role, password_hash, enabled, version)
                        VALUES (:name, :role, :hash, true, 0) ON CONFLICT (name) DO NOTHING""")
                .param("name", request.name()).param("role", request.role().name()).param("hash", hash)
                .update() == 0) {
            throw new ConflictException("An account named '" + request.name() + "' exists already (a named one, "
                    + "or one set in the manager's environment); accounts are never deleted, so choose another name");
        }
        return get(request.name());
    }

    @Transactional(readOnly = true)
    AccountResponse get(String name) {
        return jdbc.sql(SELECT + " WHERE name = :name").param("name", storable(name)).query(AccountService::row)
                .optional().orElseThrow(() -> notFound(name));
    }

    @Transactional(readOnly = true)
    Page<AccountResponse> list(Pageable pageable) {
        // the name is the key: it is the id tie-break too
        return SqlPages.page(jdbc, SELECT, Map.of("name", "name", "id", "name"), "account", Filter.NONE,
                AccountService::row, pageable);
    }

    /** Applies {@code change} to the account's current role and state; identical values write nothing. */
    AccountResponse update(String name, IfMatch ifMatch, UnaryOperator<AccountChange> change) {
        var current = jdbc.sql(SELECT + " WHERE name = :name FOR UPDATE").param("name", storable(name))
                .query(AccountService::row).optional().orElseThrow(() -> notFound(name));
        ifMatch.check(current.version());
        var changed = change.apply(new AccountChange(current.role(), current.enabled(), null));
        if (changed.password() == null && changed.role() == current.role()
                && changed.enabled() == current.enabled()) {
            return current; // idempotent: no write, no new version
        }
        var hash = changed.password() == null ? null : hash(changed.password());
        jdbc.sql("""
                        UPDATE account SET role = :role, enabled = :enabled,
                               password_hash = coalesce(:hash, password_hash), version = version + 1
                         WHERE name = :name""")
                .param("name", name).param("role", changed.role().name()).param("enabled", changed.enabled())
                .param("hash", hash)
                .update();
        return get(name);
    }

    private String hash(String password) {
        if (password.getBytes(StandardCharsets.UTF_8).length > AccountRequest.MAX_PASSWORD_BYTES) {
            // BCrypt ignores what follows: a longer password would be silently cut
            throw new InvalidRequestException("password", "must be at most " + AccountRequest.MAX_PASSWORD_BYTES
                    + " bytes in UTF-8");
        }
        return encoder.encode(password);
    }

    private boolean exists(String name) {
        try {
            everyAccount.loadUserByUsername(name);
            return true;
        } catch (UsernameNotFoundException e) {
            return false;
        }
    }

    /** A name that no account can have (a NUL, which PostgreSQL refuses, or upper case) finds nothing: 404. */
    private static String storable(String name) {
        return NAME_PATTERN.matcher(name).matches() ? name : "";
    }

    private static NotFoundException notFound(String name) {
        return new NotFoundException("No account named '" + name.replaceAll("\\p{Cntrl}", "?") + "'");
    }

    private static AccountResponse row(ResultSet rs, int rowNum) throws SQLException {
        return new AccountResponse(rs.getString("name"), Role.valueOf(rs.getString("role")), rs.getBoolean("enabled"),
                rs.getTimestamp("created_at").toInstant(), rs.getLong("version"));
    }
}
