package io.edp.manager.firewall;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.edp.engine.slowpath.Cidr;
import io.edp.engine.slowpath.PortRange;
import io.edp.engine.slowpath.Verdict;
import io.edp.manager.api.ConflictException;
import io.edp.manager.api.FieldProblem;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.api.SqlPages;
import io.edp.manager.api.SqlPages.Filter;
import io.edp.manager.api.VersionedRows;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The distributed firewall: one ordered rule list for every host. Each change bumps every host's generation in the
 * same transaction (a statement trigger); an identical PUT writes nothing.
 */
@Service
@Transactional
public class FirewallRuleService {

    private static final String SELECT = """
            SELECT id, name, priority, source, destination, protocol, source_ports, destination_ports, action,
                   applied_to, log, version FROM firewall_rule""";
    private static final String ORDER = " ORDER BY priority, id";

    private final JdbcClient jdbc;

    FirewallRuleService(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    FirewallRuleResponse create(FirewallRuleRequest request) {
        var rule = checked(request, 0, 0);
        refuseTakenName(rule);
        long id = jdbc.sql("""
                        INSERT INTO firewall_rule (name, priority, source, destination, protocol, source_ports,
                                                   destination_ports, action, applied_to, log, version)
                        VALUES (:name, :priority, :source, :destination, :protocol, :sourcePorts, :destinationPorts,
                                :action, :appliedTo, :log, 0) RETURNING id""")
                .paramSource(parameters(rule))
                .query(Long.class).single();
        return get(id);
    }

    @Transactional(readOnly = true)
    public FirewallRuleResponse get(long id) {
        return jdbc.sql(SELECT + " WHERE id = :id").param("id", id).query(FirewallRuleService::row).optional()
                .orElseThrow(() -> notFound(id));
    }

    @Transactional(readOnly = true)
    Page<FirewallRuleResponse> list(String name, Pageable pageable) {
        var filter = Filter.equal("name", "name", name);
        return SqlPages.page(jdbc, SELECT + filter.where(), Map.of("priority", "priority", "name", "name", "id", "id"),
                "firewall_rule", filter, FirewallRuleService::row, pageable);
    }

    /** Every rule in evaluation order: what each host's engine gets. */
    @Transactional(readOnly = true)
    public List<FirewallRuleResponse> all() {
        return jdbc.sql(SELECT + ORDER).query(FirewallRuleService::row).list();
    }

    FirewallRuleResponse replace(long id, IfMatch ifMatch, FirewallRuleRequest request) {
        var current = jdbc.sql(SELECT + " WHERE id = :id FOR UPDATE").param("id", id)
                .query(FirewallRuleService::row).optional().orElseThrow(() -> notFound(id));
        ifMatch.check(current.version());
        var rule = checked(request, id, current.version());
        if (rule.equals(current)) {
            return current; // idempotent: no write, so no version or generation bump
        }
        refuseTakenName(rule);
        jdbc.sql("""
                        UPDATE firewall_rule SET name = :name, priority = :priority, source = :source,
                               destination = :destination, protocol = :protocol, source_ports = :sourcePorts,
                               destination_ports = :destinationPorts, action = :action, applied_to = :appliedTo,
                               log = :log, version = version + 1
                         WHERE id = :id""")
                .paramSource(parameters(rule))
                .update();
        return get(id);
    }

    /** Names are unique (a constraint catches two writes racing); the 409 names the holder so a client can adopt it. */
    private void refuseTakenName(FirewallRuleResponse rule) {
        jdbc.sql("SELECT id FROM firewall_rule WHERE name = :name AND id <> :id")
                .param("name", rule.name()).param("id", rule.id())
                .query(Long.class).optional().ifPresent(holder -> {
                    throw new ConflictException("A firewall rule named '" + rule.name() + "' already exists: rule "
                            + holder, "/api/v1/firewall/rules/" + holder);
                });
    }

    void delete(long id, IfMatch ifMatch) {
        VersionedRows.delete(jdbc, "firewall_rule", id, ifMatch, () -> notFound(id));
    }

    /** Checks every field and returns the rule in canonical form, or 400 listing each bad field. */
    private static FirewallRuleResponse checked(FirewallRuleRequest request, long id, long version) {
        var problems = new ArrayList<FieldProblem>();
        var source = cidr(request.source(), "source", problems);
        var destination = cidr(request.destination(), "destination", problems);
        if (source != null && destination != null && source.version() != 0 && destination.version() != 0
                && source.version() != destination.version()) {
            problems.add(new FieldProblem("destination", "is IPv" + destination.version() + " but source is IPv"
                    + source.version()));
        }
        Protocol protocol = null;
        try {
            protocol = Protocol.valueOf(request.protocol().strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problems.add(new FieldProblem("protocol", "unknown protocol '" + request.protocol() + "'; use one of "
                    + Arrays.toString(Protocol.values())));
        }
        var sourcePorts = ports(request.sourcePorts(), "sourcePorts", protocol, problems);
        var destinationPorts = ports(request.destinationPorts(), "destinationPorts", protocol, problems);
        String action = request.action().strip().toUpperCase(Locale.ROOT);
        try {
            Verdict.valueOf(action);
        } catch (IllegalArgumentException e) {
            problems.add(new FieldProblem("action", "unknown action '" + request.action()
                    + "'; use ALLOW, DROP or REJECT"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        var appliedTo = request.appliedTo() == null ? List.<String>of()
                : request.appliedTo().stream().map(String::strip)
                        .map(target -> target.matches("(?i)[0-9a-f]{2}(:[0-9a-f]{2}){5}")
                                ? target.toLowerCase(Locale.ROOT) : target)
                        .distinct().sorted().toList();
        return new FirewallRuleResponse(id, request.name(), request.priority(), request.source().strip(),
                request.destination().strip(), protocol, sourcePorts, destinationPorts, action, appliedTo,
                Boolean.TRUE.equals(request.log()), version);
    }

    private static Cidr cidr(String text, String field, List<FieldProblem> problems) {
        try {
            return Cidr.parse(text.strip(), field);
        } catch (IllegalArgumentException e) {
            problems.add(new FieldProblem(field, "must be a CIDR like 10.0.0.0/8 or fd00::/64, an address, or any: "
                    + text));
            return null;
        }
    }

    private static String ports(String text, String field, Protocol protocol, List<FieldProblem> problems) {
        try {
            PortRange range = PortRanges.parse(text);
            if (!range.equals(PortRange.ANY) && protocol != null && !protocol.hasPorts()) {
                problems.add(new FieldProblem(field, "ports need protocol TCP or UDP, not " + protocol));
            }
            return PortRanges.format(range);
        } catch (IllegalArgumentException e) {
            problems.add(new FieldProblem(field, e.getMessage()));
            return null;
        }
    }

    private static MapSqlParameterSource parameters(FirewallRuleResponse r) {
        return new MapSqlParameterSource()
                .addValue("id", r.id())
                .addValue("name", r.name())
                .addValue("priority", r.priority())
                .addValue("source", r.source())
                .addValue("destination", r.destination())
                .addValue("protocol", r.protocol().name())
                .addValue("sourcePorts", r.sourcePorts())
                .addValue("destinationPorts", r.destinationPorts())
                .addValue("action", r.action())
                .addValue("appliedTo", r.appliedTo().toArray(String[]::new))
                .addValue("log", r.log());
    }

    private static FirewallRuleResponse row(ResultSet rs, int rowNum) throws SQLException {
        return new FirewallRuleResponse(rs.getLong("id"), rs.getString("name"), rs.getInt("priority"),
                rs.getString("source"), rs.getString("destination"), Protocol.valueOf(rs.getString("protocol")),
                rs.getString("source_ports"), rs.getString("destination_ports"), rs.getString("action"),
                List.of((String[]) rs.getArray("applied_to").getArray()), rs.getBoolean("log"), rs.getLong("version"));
    }

    private static NotFoundException notFound(long id) {
        return new NotFoundException("No firewall rule with id " + id);
    }
}
