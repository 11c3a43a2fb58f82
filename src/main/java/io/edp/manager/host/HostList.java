package io.edp.manager.host;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import io.edp.manager.api.SqlPages;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * A page of hosts read straight into {@link HostResponse}s: one statement for the page, its hosts' NUMA nodes and
 * labels aggregated into it as JSON, and one for the total when the page cannot tell it. Loading the page as
 * entities cost a hundred entities and two hundred collections per request (docs/benchmarks.md, "Read endpoints").
 * No transaction: the page and its total are two statements either way, each consistent in itself.
 */
@Component
class HostList {

    private static final String SELECT = "SELECT h.id, h.name, h.management_address, h.placement, h.version FROM host h";
    /**
     * The page's hosts (as {@code h}, so that the page's ORDER BY applies again) with their nodes and labels,
     * aggregated for the page's hosts only in one pass each: a subquery per host cost five times as much in
     * PostgreSQL.
     */
    private static final String WITH_NODES_AND_LABELS = """
            SELECT h.*, n.numa_nodes::text AS numa_nodes, l.labels::text AS labels
              FROM h
              LEFT JOIN (SELECT host_id, json_agg(json_build_object('id', node_id, 'cpuCores', cpu_cores)
                                                  ORDER BY node_id) AS numa_nodes
                           FROM host_numa_node WHERE host_id IN (SELECT id FROM h) GROUP BY host_id) n
                ON n.host_id = h.id
              LEFT JOIN (SELECT host_id, json_object_agg(name, value) AS labels
                           FROM host_label WHERE host_id IN (SELECT id FROM h) GROUP BY host_id) l
                ON l.host_id = h.id""";
    private static final Map<String, String> COLUMNS = Map.of("name", "h.name",
            "managementAddress", "h.management_address", "id", "h.id");
    private static final TypeReference<List<NumaNode>> NUMA_NODES = new TypeReference<>() {
    };
    private static final TypeReference<TreeMap<String, String>> LABELS = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final AgentConnections agents;

    HostList(JdbcClient jdbc, JsonMapper json, AgentConnections agents) {
        this.jdbc = jdbc;
        this.json = json;
        this.agents = agents;
    }

    /** The page, then its hosts' agent statuses in one more statement (the agent feature owns that table). */
    Page<HostResponse> page(HostFilter filter, Pageable pageable) {
        var where = filter.sqlFilter();
        var page = SqlPages.page(jdbc, SELECT + where.where(), COLUMNS, "host h", where, this::row, pageable,
                (rows, orderBy) -> "WITH h AS (" + rows + ") " + WITH_NODES_AND_LABELS + orderBy);
        var statuses = agents.of(page.map(HostResponse::id).toList());
        return page.map(host -> host.withAgent(statuses.getOrDefault(host.id(), AgentStatus.NONE)));
    }

    /** Labels in a TreeMap, as {@link Host#labels()} gives them: the API lists them in Java's order, not SQL's. */
    private HostResponse row(ResultSet rs, int rowNum) throws SQLException {
        String nodes = rs.getString("numa_nodes");
        String labels = rs.getString("labels");
        return new HostResponse(rs.getObject("id", UUID.class), rs.getString("name"),
                rs.getString("management_address"), Placement.valueOf(rs.getString("placement")), null, nodes == null ? List.of() : json.readValue(nodes, NUMA_NODES),
                labels == null ? new TreeMap<>() : json.readValue(labels, LABELS), rs.getLong("version"));
    }
}
