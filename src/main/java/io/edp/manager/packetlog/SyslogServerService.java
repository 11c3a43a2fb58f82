package io.edp.manager.packetlog;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.edp.engine.packetlog.PacketLogConfig.Transport;
import io.edp.manager.api.FieldProblem;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.api.SqlPages;
import io.edp.manager.api.SqlPages.Filter;
import io.edp.manager.api.VersionedRows;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The syslog servers of the firewall packet log, the same for every host; a change bumps every host's generation
 * (a trigger), an identical PUT writes nothing.
 */
@Service
@Transactional
public class SyslogServerService {

    static final int DEFAULT_PORT = 514;
    private static final String SELECT = "SELECT id, host, port, transport, version FROM syslog_server";

    private final JdbcClient jdbc;

    SyslogServerService(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    SyslogServerResponse create(SyslogServerRequest request) {
        var server = checked(request, 0, 0);
        long id = jdbc.sql("INSERT INTO syslog_server (host, port, transport, version) "
                        + "VALUES (:host, :port, :transport, 0) RETURNING id")
                .param("host", server.host()).param("port", server.port())
                .param("transport", server.transport().name())
                .query(Long.class).single();
        return get(id);
    }

    @Transactional(readOnly = true)
    SyslogServerResponse get(long id) {
        return jdbc.sql(SELECT + " WHERE id = :id").param("id", id).query(SyslogServerService::row).optional()
                .orElseThrow(() -> notFound(id));
    }

    @Transactional(readOnly = true)
    Page<SyslogServerResponse> list(String host, Pageable pageable) {
        var filter = Filter.equal("host", "host", host);
        return SqlPages.page(jdbc, SELECT + filter.where(), Map.of("id", "id", "host", "host"), "syslog_server",
                filter, SyslogServerService::row, pageable);
    }

    /** Every server: where each host's engine sends its packet log. */
    @Transactional(readOnly = true)
    public List<SyslogServerResponse> all() {
        return jdbc.sql(SELECT + " ORDER BY id").query(SyslogServerService::row).list();
    }

    SyslogServerResponse replace(long id, IfMatch ifMatch, SyslogServerRequest request) {
        var current = jdbc.sql(SELECT + " WHERE id = :id FOR UPDATE").param("id", id)
                .query(SyslogServerService::row).optional().orElseThrow(() -> notFound(id));
        ifMatch.check(current.version());
        var server = checked(request, id, current.version());
        if (server.equals(current)) {
            return current; // idempotent: no write, so no version or generation bump
        }
        jdbc.sql("UPDATE syslog_server SET host = :host, port = :port, transport = :transport, "
                        + "version = version + 1 WHERE id = :id")
                .param("id", id).param("host", server.host()).param("port", server.port())
                .param("transport", server.transport().name())
                .update();
        return get(id);
    }

    void delete(long id, IfMatch ifMatch) {
        VersionedRows.delete(jdbc, "syslog_server", id, ifMatch, () -> notFound(id));
    }

    private static SyslogServerResponse checked(SyslogServerRequest request, long id, long version) {
        Transport transport;
        try {
            transport = Transport.valueOf(request.transport().strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(List.of(new FieldProblem("transport", "unknown transport '"
                    + request.transport() + "'; use UDP or TCP")));
        }
        String host = request.host().strip();
        if (!host.matches("[A-Za-z0-9.:-]+")) {
            throw new InvalidRequestException(List.of(new FieldProblem("host",
                    "must be a host name or an IP address: " + request.host())));
        }
        return new SyslogServerResponse(id, host.toLowerCase(Locale.ROOT),
                request.port() == null ? DEFAULT_PORT : request.port(), transport, version);
    }

    private static SyslogServerResponse row(ResultSet rs, int rowNum) throws SQLException {
        return new SyslogServerResponse(rs.getLong("id"), rs.getString("host"), rs.getInt("port"),
                Transport.valueOf(rs.getString("transport")), rs.getLong("version"));
    }

    private static NotFoundException notFound(long id) {
        return new NotFoundException("No syslog server with id " + id);
    }
}
