package io.edp.manager.telemetry;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

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
 * IPFIX collectors, the same for every host; a change bumps every host's generation (the trigger
 * {@code ipfix_collectors_changed}, V3), so each engine exports to the new list after its next realization.
 */
@Service
@Transactional
public class IpfixCollectorService {

    private static final String SELECT = "SELECT id, address, port, version FROM ipfix_collector";

    private final JdbcClient jdbc;

    IpfixCollectorService(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    IpfixCollectorResponse create(IpfixCollectorRequest request) {
        long id = jdbc.sql("INSERT INTO ipfix_collector (address, port, version) VALUES (:address, :port, 0) "
                        + "RETURNING id")
                .param("address", canonical(request.address())).param("port", request.port())
                .query(Long.class).single();
        return get(id);
    }

    @Transactional(readOnly = true)
    IpfixCollectorResponse get(long id) {
        return jdbc.sql(SELECT + " WHERE id = :id").param("id", id).query(IpfixCollectorService::row).optional()
                .orElseThrow(() -> notFound(id));
    }

    @Transactional(readOnly = true)
    Page<IpfixCollectorResponse> list(String address, Pageable pageable) {
        var filter = Filter.equal("address", "address", address == null ? null : canonical(address));
        return SqlPages.page(jdbc, SELECT + filter.where(), Map.of("id", "id", "address", "address"),
                "ipfix_collector", filter, IpfixCollectorService::row, pageable);
    }

    /** Every collector, as the engine takes them. */
    @Transactional(readOnly = true)
    public List<InetSocketAddress> all() {
        return jdbc.sql(SELECT + " ORDER BY id").query(IpfixCollectorService::row).list().stream()
                .map(c -> new InetSocketAddress(InetAddress.ofLiteral(c.address()), c.port())).toList();
    }

    IpfixCollectorResponse replace(long id, IfMatch ifMatch, IpfixCollectorRequest request) {
        var current = jdbc.sql(SELECT + " WHERE id = :id FOR UPDATE").param("id", id)
                .query(IpfixCollectorService::row).optional().orElseThrow(() -> notFound(id));
        ifMatch.check(current.version());
        var next = new IpfixCollectorResponse(id, canonical(request.address()), request.port(), current.version());
        if (next.equals(current)) {
            return current; // idempotent: no write, so no version or generation bump
        }
        jdbc.sql("UPDATE ipfix_collector SET address = :address, port = :port, version = version + 1 WHERE id = :id")
                .param("id", id).param("address", next.address()).param("port", next.port()).update();
        return get(id);
    }

    void delete(long id, IfMatch ifMatch) {
        VersionedRows.delete(jdbc, "ipfix_collector", id, ifMatch, () -> notFound(id));
    }

    /** The address in its canonical form; only IP literals (a name would need DNS on every realization). */
    private static String canonical(String address) {
        String a = address.strip();
        if (!a.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
            throw new InvalidRequestException(List.of(new FieldProblem("address",
                    "must be an IPv4 or IPv6 address like 192.0.2.10 or 2001:db8::10: " + address)));
        }
        try {
            return InetAddress.ofLiteral(a).getHostAddress();
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(List.of(new FieldProblem("address",
                    "must be an IPv4 or IPv6 address like 192.0.2.10 or 2001:db8::10: " + address)));
        }
    }

    private static IpfixCollectorResponse row(ResultSet rs, int rowNum) throws SQLException {
        return new IpfixCollectorResponse(rs.getLong("id"), rs.getString("address"), rs.getInt("port"),
                rs.getLong("version"));
    }

    private static NotFoundException notFound(long id) {
        return new NotFoundException("No IPFIX collector with id " + id);
    }
}
