package io.edp.manager.routing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.edp.engine.slowpath.Cidr;
import io.edp.engine.slowpath.MacAddress;
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

/** Routes of the distributed router, the same on every host; a change bumps every host's generation (a trigger). */
@Service
@Transactional
public class RouteService {

    private static final String SELECT = "SELECT id, prefix, next_hop_mac, output, vlan, version FROM route";

    private final JdbcClient jdbc;

    RouteService(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    RouteResponse create(RouteRequest request) {
        var route = checked(request, 0, 0);
        long id = jdbc.sql("INSERT INTO route (prefix, next_hop_mac, output, vlan, version) "
                        + "VALUES (:prefix, :nextHopMac, :output, :vlan, 0) RETURNING id")
                .param("prefix", route.prefix()).param("nextHopMac", route.nextHopMac())
                .param("output", route.output()).param("vlan", route.vlan())
                .query(Long.class).single();
        return get(id);
    }

    @Transactional(readOnly = true)
    RouteResponse get(long id) {
        return jdbc.sql(SELECT + " WHERE id = :id").param("id", id).query(RouteService::row).optional()
                .orElseThrow(() -> notFound(id));
    }

    @Transactional(readOnly = true)
    Page<RouteResponse> list(String prefix, String output, Pageable pageable) {
        var filter = Filter.equal("prefix", "prefix", prefix).and(Filter.equal("output", "output", output));
        return SqlPages.page(jdbc, SELECT + filter.where(), Map.of("id", "id", "prefix", "prefix"), "route", filter,
                RouteService::row, pageable);
    }

    /** Every route: what each host's engine gets (those whose output NIC it has). */
    @Transactional(readOnly = true)
    public List<RouteResponse> all() {
        return jdbc.sql(SELECT + " ORDER BY id").query(RouteService::row).list();
    }

    RouteResponse replace(long id, IfMatch ifMatch, RouteRequest request) {
        var current = jdbc.sql(SELECT + " WHERE id = :id FOR UPDATE").param("id", id).query(RouteService::row)
                .optional().orElseThrow(() -> notFound(id));
        ifMatch.check(current.version());
        var route = checked(request, id, current.version());
        if (route.equals(current)) {
            return current; // idempotent: no write, so no version or generation bump
        }
        jdbc.sql("UPDATE route SET prefix = :prefix, next_hop_mac = :nextHopMac, output = :output, vlan = :vlan, "
                        + "version = version + 1 WHERE id = :id")
                .param("id", id).param("prefix", route.prefix()).param("nextHopMac", route.nextHopMac())
                .param("output", route.output()).param("vlan", route.vlan())
                .update();
        return get(id);
    }

    void delete(long id, IfMatch ifMatch) {
        VersionedRows.delete(jdbc, "route", id, ifMatch, () -> notFound(id));
    }

    private static RouteResponse checked(RouteRequest request, long id, long version) {
        var problems = new ArrayList<FieldProblem>();
        try {
            Cidr.parse(request.prefix().strip(), "prefix");
        } catch (IllegalArgumentException e) {
            problems.add(new FieldProblem("prefix", "must be a CIDR like 10.128.0.0/16 or fd01::/64: "
                    + request.prefix()));
        }
        try {
            MacAddress.parse(request.nextHopMac().strip(), "nextHopMac");
        } catch (IllegalArgumentException e) {
            problems.add(new FieldProblem("nextHopMac", "must be a MAC address like 02:00:00:00:00:fe: "
                    + request.nextHopMac()));
        }
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        return new RouteResponse(id, request.prefix().strip(), request.nextHopMac().strip().toLowerCase(Locale.ROOT),
                request.output(), request.vlan(), version);
    }

    private static RouteResponse row(ResultSet rs, int rowNum) throws SQLException {
        return new RouteResponse(rs.getLong("id"), rs.getString("prefix"), rs.getString("next_hop_mac"),
                rs.getString("output"), rs.getInt("vlan"), rs.getLong("version"));
    }

    private static NotFoundException notFound(long id) {
        return new NotFoundException("No route with id " + id);
    }
}
