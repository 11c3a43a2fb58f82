package io.edp.manager.audit;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Pageable;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
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
                        INSERT INTO audit_event (username, method, path, resource, etag_before, etag_after, status)
                        VALUES (:user, :method, :path, :resource, :etagBefore, :etagAfter, :status)""")
                .paramSource(write)
                .update();
    }

    @Transactional(readOnly = true)
    Page<AuditEvent> page(AuditEventQuery query, Pageable pageable) {
        var where = new ArrayList<String>();
        var params = new MapSqlParameterSource();
        if (query.from() != null) {
            where.add("occurred_at >= :from");
            params.addValue("from", utc(query.from()));
        }
        if (query.to() != null) {
            where.add("occurred_at < :to");
            params.addValue("to", utc(query.to()));
        }
        if (query.user() != null) {
            where.add("username = :user");
            params.addValue("user", query.user());
        }
        if (query.resource() != null) {
            where.add("(resource = :resource OR resource LIKE :below ESCAPE '\\')");
            var resource = query.resource().endsWith("/") && query.resource().length() > 1
                    ? query.resource().substring(0, query.resource().length() - 1) : query.resource();
            params.addValue("resource", resource);
            params.addValue("below", resource.replaceAll("([\\\\%_])", "\\\\$1") + "/%");
        }
        var filter = where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where);
        var order = new ArrayList<String>();
        pageable.getSort().forEach(by -> order.add("id " + by.getDirection().name()));
        var items = jdbc.sql("SELECT * FROM audit_event" + filter + " ORDER BY " + String.join(", ", order)
                        + " LIMIT :limit OFFSET :offset")
                .paramSource(params.addValue("limit", pageable.getPageSize()).addValue("offset", pageable.getOffset()))
                .query(AuditTrail::row).list();
        long total = jdbc.sql("SELECT count(*) FROM audit_event" + filter).paramSource(params)
                .query(Long.class).single();
        return new PageImpl<>(items, pageable, total);
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
