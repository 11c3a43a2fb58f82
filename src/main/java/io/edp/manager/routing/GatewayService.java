package io.edp.manager.routing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.edp.engine.slowpath.Gateway;
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
 * The router's gateway addresses, one per segment (VLAN), the same on every host; a change bumps every host's
 * generation (a trigger).
 */
@Service
@Transactional
public class GatewayService {

    private static final String SELECT = "SELECT id, vlan, ipv4, ipv6, version FROM segment_gateway";

    private final JdbcClient jdbc;

    GatewayService(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    GatewayResponse create(GatewayRequest request) {
        var gateway = checked(request, 0, 0);
        long id = jdbc.sql("INSERT INTO segment_gateway (vlan, ipv4, ipv6, version) VALUES (:vlan, :ipv4, :ipv6, 0) "
                        + "RETURNING id")
                .param("vlan", gateway.vlan()).param("ipv4", gateway.ipv4()).param("ipv6", gateway.ipv6())
                .query(Long.class).single();
        return get(id);
    }

    @Transactional(readOnly = true)
    GatewayResponse get(long id) {
        return jdbc.sql(SELECT + " WHERE id = :id").param("id", id).query(GatewayService::row).optional()
                .orElseThrow(() -> notFound(id));
    }

    @Transactional(readOnly = true)
    Page<GatewayResponse> list(Integer vlan, Pageable pageable) {
        var filter = Filter.equal("vlan", "vlan", vlan);
        return SqlPages.page(jdbc, SELECT + filter.where(), Map.of("id", "id", "vlan", "vlan"), "segment_gateway",
                filter, GatewayService::row, pageable);
    }

    /** Every gateway: what each host's engine gets. */
    @Transactional(readOnly = true)
    public List<GatewayResponse> all() {
        return jdbc.sql(SELECT + " ORDER BY vlan").query(GatewayService::row).list();
    }

    GatewayResponse replace(long id, IfMatch ifMatch, GatewayRequest request) {
        var current = jdbc.sql(SELECT + " WHERE id = :id FOR UPDATE").param("id", id).query(GatewayService::row)
                .optional().orElseThrow(() -> notFound(id));
        ifMatch.check(current.version());
        var gateway = checked(request, id, current.version());
        if (gateway.equals(current)) {
            return current; // idempotent: no write, so no version or generation bump
        }
        jdbc.sql("UPDATE segment_gateway SET vlan = :vlan, ipv4 = :ipv4, ipv6 = :ipv6, version = version + 1 "
                        + "WHERE id = :id")
                .param("id", id).param("vlan", gateway.vlan()).param("ipv4", gateway.ipv4())
                .param("ipv6", gateway.ipv6())
                .update();
        return get(id);
    }

    void delete(long id, IfMatch ifMatch) {
        VersionedRows.delete(jdbc, "segment_gateway", id, ifMatch, () -> notFound(id));
    }

    /** The request with its addresses trimmed and in lower case, or every bad field (the engine's own rules). */
    private static GatewayResponse checked(GatewayRequest request, long id, long version) {
        var problems = new ArrayList<FieldProblem>();
        String ipv4 = address(request.ipv4(), 4, "ipv4", "10.0.0.254", problems);
        String ipv6 = address(request.ipv6(), 6, "ipv6", "fd00::fe", problems);
        if (request.ipv4() == null && request.ipv6() == null) {
            problems.add(new FieldProblem("ipv4", "ipv4 or ipv6 is required"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        return new GatewayResponse(id, request.vlan(), ipv4, ipv6, version);
    }

    private static String address(String text, int version, String field, String example,
                                  List<FieldProblem> problems) {
        if (text == null) {
            return null;
        }
        try {
            var address = text.strip().toLowerCase(Locale.ROOT);
            new Gateway(0, version == 4 ? address : null, version == 6 ? address : null);
            return address;
        } catch (IllegalArgumentException e) {
            problems.add(new FieldProblem(field, "must be a unicast IPv" + version + " address like " + example
                    + ": " + text));
            return null;
        }
    }

    private static GatewayResponse row(ResultSet rs, int rowNum) throws SQLException {
        return new GatewayResponse(rs.getLong("id"), rs.getInt("vlan"), rs.getString("ipv4"), rs.getString("ipv6"),
                rs.getLong("version"));
    }

    private static NotFoundException notFound(long id) {
        return new NotFoundException("No gateway with id " + id);
    }
}
