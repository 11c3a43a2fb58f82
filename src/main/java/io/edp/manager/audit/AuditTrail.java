package io.edp.manager.audit;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;

import io.edp.manager.api.SqlPages;
import io.edp.manager.api.SqlPages.Filter;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The audit trail in PostgreSQL. {@link #append} joins the caller's transaction when there is one, which is how a
 * successful write and its event commit or roll back together ({@link AuditedWrites}).
 */
@Service
@Transactional
public class AuditTrail {

    private final JdbcClient jdbc;

    AuditTrail(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void append(AuditedWrite write) {
        jdbc.sql("""
                        INSERT INTO audit_event (username, method, path, resource, etag_before, etag_after,
                                status, dry_run)
                        VALUES (:user, :method, :path, :resource, :etagBefore, :etagAfter, :status, :dryRun)""")
                .paramSource(write)
                .update();
    }

    @Transactional(readOnly = true)
    Page<AuditEvent> page(AuditEventQuery query, Pageable pageable) {
        var filter = Filter.NONE;
        if (query.from() != null) {
            filter = filter.and(new Filter(" WHERE occurred_at >= :from", Map.of("from", utc(query.from()))));
        }
        if (query.to() != null) {
            filter = filter.and(new Filter(" WHERE occurred_at < :to", Map.of("to", utc(query.to()))));
        }
        filter = filter.and(Filter.equal("username", "user", query.user()));
        if (query.resource() != null) {
            var resource = query.resource().length() > 1 && query.resource().endsWith("/")
                    ? query.resource().substring(0, query.resource().length() - 1) : query.resource();
            // the resource and everything below it; LIKE's wildcards in the path are taken literally
            filter = filter.and(new Filter(" WHERE (resource = :resource OR resource LIKE :below ESCAPE '\\')",
                    Map.of("resource", resource, "below", resource.replaceAll("([\\\\%_])", "\\\\$1") + "/%")));
        }
        return SqlPages.page(jdbc, "SELECT * FROM audit_event" + filter.where(), Map.of("id", "id"), "audit_event",
                filter, AuditTrail::row, pageable);
    }

    /** Deletes the events that occurred before {@code cutoff}; returns how many. */
    int deleteBefore(Instant cutoff) {
        return jdbc.sql("DELETE FROM audit_event WHERE occurred_at < :cutoff").param("cutoff", utc(cutoff)).update();
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    private static AuditEvent row(ResultSet rs, int rowNum) throws SQLException {
        int status = rs.getInt("status");
        return new AuditEvent(rs.getLong("id"), rs.getObject("occurred_at", OffsetDateTime.class).toInstant(),
                rs.getString("username"), rs.getString("method"), rs.getString("path"), rs.getString("resource"),
                rs.getString("etag_before"), rs.getString("etag_after"), status, AuditEvent.Outcome.of(status),
                rs.getBoolean("dry_run"));
    }
}
