package io.edp.manager.host;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.edp.manager.api.PageResponse;
import io.edp.manager.api.SqlPages;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * A page of hosts read straight into {@link HostResponse}s: one statement for the page, its hosts' NUMA nodes and
 * labels aggregated into it as JSON, and one for the total when the page cannot tell it. Loading the page as
 * entities cost a hundred entities and two hundred collections per request (docs/benchmarks.md, "Read endpoints").
 * No transaction: the page and its total are two statements either way, each consistent in itself.
 * <p>
 * Pages read are kept with the value of the host list's change counter (host_list_version, bumped in the commit of
 * every change to hosts, their nodes and labels, whichever replica makes it) read before them, and served again
 * while it has not moved: a request reads the counter first, so it never gets a page older than a change committed
 * before it started (requests arriving together share a read that started after they arrived: {@link
 * SharedCounterRead}). A page may be newer than its counter value (a change committed between the two reads); that
 * only costs a read again. A kept page also keeps each host's JSON ({@link HostItems}). The agents' statuses change
 * with every poll and by the clock, so they are read for every request for the hosts that show one, and such a
 * host is written anew.
 */
@Component
class HostList {

    private static final String SELECT =
            "SELECT h.id, h.name, h.management_address, h.placement, h.version FROM host h";
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

    /** Enough for the pages a few dashboards poll; past it, all are dropped and read again as asked for. */
    private static final int MAX_PAGES = 256;

    /** A page as asked for: filter and pageable are values. */
    private record Query(HostFilter filter, Pageable pageable) {
    }

    /**
     * A page read when the change counter was {@code version} or later, each of its hosts' JSON, and those of its
     * hosts that show an agent status (placed AGENT, or with an agent token: issuing or withdrawing one moves the
     * counter, V6_7).
     */
    private record Read(long version, Page<HostResponse> page, SerializableString[] json, List<UUID> showingAgents) {
    }

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final AgentConnections agents;
    private final Map<Query, Read> pages = new ConcurrentHashMap<>();
    private final SharedCounterRead counter;

    HostList(JdbcClient jdbc, JsonMapper json, AgentConnections agents) {
        this.jdbc = jdbc;
        this.counter = new SharedCounterRead(
                () -> jdbc.sql("SELECT version FROM host_list_version").query(Long.class).single());
        this.json = json;
        this.agents = agents;
    }

    /**
     * The page (kept, or read if the counter moved since), then the agent statuses of those of its hosts that show
     * one, in one more statement (the agent feature owns that table): none for a kept page of embedded hosts without
     * agent tokens.
     */
    PageResponse<HostResponse> page(HostFilter filter, Pageable pageable) {
        long version = counter.read();
        var query = new Query(filter, pageable);
        var kept = pages.get(query);
        Map<UUID, AgentStatus> statuses;
        if (kept == null || kept.version() != version) {
            var page = read(filter, pageable);
            statuses = agents.of(page.map(HostResponse::id).toList());
            kept = new Read(version, page, page.stream()
                    .map(host -> new SerializedString(json.writeValueAsString(host)))
                    .toArray(SerializableString[]::new), page.stream()
                    .filter(host -> host.placement() == Placement.AGENT
                            || statuses.getOrDefault(host.id(), AgentStatus.NONE).tokenIssued())
                    .map(HostResponse::id).toList());
            if (pages.size() >= MAX_PAGES) {
                pages.clear();
            }
            pages.put(query, kept);
        } else {
            statuses = kept.showingAgents().isEmpty() ? Map.of() : agents.of(kept.showingAgents());
        }
        var hosts = kept.page().getContent().toArray(HostResponse[]::new);
        var written = kept.json().clone();
        for (int i = 0; i < hosts.length; i++) {
            var host = hosts[i].withAgent(statuses.getOrDefault(hosts[i].id(), AgentStatus.NONE));
            if (host != hosts[i]) {
                hosts[i] = host;
                written[i] = null;
            }
        }
        return new PageResponse<>(new HostItems(hosts, written), PageResponse.of(kept.page()).page());
    }

    private Page<HostResponse> read(HostFilter filter, Pageable pageable) {
        var where = filter.sqlFilter();
        return SqlPages.page(jdbc, SELECT + where.where(), COLUMNS, "host h", where, this::row, pageable,
                (rows, orderBy) -> "WITH h AS (" + rows + ") " + WITH_NODES_AND_LABELS + orderBy);
    }

    /**
     * Labels in a TreeMap, as {@link Host#labels()} gives them: the API lists them in Java's order, not SQL's.
     * Unmodifiable: a kept page serves many requests.
     */
    private HostResponse row(ResultSet rs, int rowNum) throws SQLException {
        String nodes = rs.getString("numa_nodes");
        String labels = rs.getString("labels");
        return new HostResponse(rs.getObject("id", UUID.class), rs.getString("name"),
                rs.getString("management_address"), Placement.valueOf(rs.getString("placement")), null,
                nodes == null ? List.of() : json.readValue(nodes, NUMA_NODES),
                Collections.unmodifiableSortedMap(labels == null ? new TreeMap<>() : json.readValue(labels, LABELS)),
                rs.getLong("version"));
    }
}
