package io.edp.manager.agent;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.edp.manager.host.AgentConnections;
import io.edp.manager.host.AgentStatus;
import io.edp.manager.host.Placement;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The host_agent table: each host's agent token (hashed), when its agent was last heard from, its statistics. */
@Repository
@EnableConfigurationProperties(AgentProperties.class)
class AgentRepository implements AgentConnections {

    /**
     * How far behind an agent's last_seen_at may be while it calls: well inside {@code edp.agent.connected-within}
     * (60 s), so a connected agent never shows disconnected.
     */
    static final Duration SEEN_GRANULARITY = Duration.ofSeconds(15);

    /** When this replica last wrote an agent's last_seen_at, and the version it wrote. */
    private record Written(long atNanos, String version) {
    }

    private final JdbcClient jdbc;
    private final AgentProperties properties;
    private final Map<UUID, Written> written = new ConcurrentHashMap<>();

    AgentRepository(JdbcClient jdbc, AgentProperties properties) {
        this.jdbc = jdbc;
        this.properties = properties;
    }

    /** A statistics snapshot as the agent sent it, when it was taken, and the generation the engine ran. */
    record StoredStats(String json, Instant takenAt, Instant receivedAt, long generation) {
    }

    /** Replaces the host's token hash: the previous token stops working at once. */
    Instant issue(UUID hostId, byte[] tokenSha256) {
        return jdbc.sql("""
                        INSERT INTO host_agent (host_id, token_sha256, token_issued_at) VALUES (:id, :hash, now())
                        ON CONFLICT (host_id) DO UPDATE SET token_sha256 = :hash, token_issued_at = now()
                        RETURNING token_issued_at""")
                .param("id", hostId).param("hash", tokenSha256)
                .query(Timestamp.class).single().toInstant();
    }

    Optional<AgentPrincipal> byToken(byte[] tokenSha256) {
        return jdbc.sql("SELECT h.id, h.name FROM host_agent a JOIN host h ON h.id = a.host_id "
                        + "WHERE a.token_sha256 = :hash")
                .param("hash", tokenSha256)
                .query((rs, i) -> new AgentPrincipal(rs.getObject(1, UUID.class), rs.getString(2)))
                .optional();
    }

    /**
     * The agent was heard from now, running {@code version}. Written at most every {@link #SEEN_GRANULARITY} per
     * agent (and replica), or when its version changes: every call of every agent (long polls, reports) each
     * wrote a row before, tens of updates a second for a fleet.
     */
    void seen(UUID hostId, String version) {
        long now = System.nanoTime();
        var last = written.get(hostId);
        if (last != null && now - last.atNanos() < SEEN_GRANULARITY.toNanos()
                && Objects.equals(last.version(), version)) {
            return;
        }
        jdbc.sql("UPDATE host_agent SET last_seen_at = now(), agent_version = coalesce(:version, agent_version) "
                        + "WHERE host_id = :id")
                .param("id", hostId).param("version", version).update();
        written.put(hostId, new Written(now, version));
    }

    /** Stores the snapshot; it says the agent was heard from too. */
    void storeStats(UUID hostId, String json, Instant takenAt, long generation) {
        jdbc.sql("""
                        UPDATE host_agent SET stats = jsonb_build_object('generation', :generation, 'stats',
                               CAST(:json AS jsonb)), stats_taken_at = :takenAt, last_seen_at = now()
                         WHERE host_id = :id""")
                .param("id", hostId).param("json", json).param("generation", generation)
                .param("takenAt", Timestamp.from(takenAt)).update();
        long now = System.nanoTime();
        written.compute(hostId, (id, last) -> new Written(now, last == null ? null : last.version()));
    }

    /** The host's placement; empty if the host is gone. */
    Optional<Placement> placement(UUID hostId) {
        return jdbc.sql("SELECT placement FROM host WHERE id = :id").param("id", hostId)
                .query((rs, i) -> Placement.valueOf(rs.getString(1))).optional();
    }

    /** The last statistics snapshot of the host's agent, if the host is placed AGENT and its agent sent one. */
    Optional<StoredStats> stats(UUID hostId) {
        return jdbc.sql("SELECT a.stats->'stats', a.stats_taken_at, a.last_seen_at, "
                        + "(a.stats->>'generation')::bigint FROM host_agent a JOIN host h ON h.id = a.host_id "
                        + "WHERE a.host_id = :id AND a.stats IS NOT NULL AND h.placement = 'AGENT'")
                .param("id", hostId)
                .query((rs, i) -> new StoredStats(rs.getString(1), rs.getTimestamp(2).toInstant(),
                        rs.getTimestamp(3).toInstant(), rs.getLong(4)))
                .optional();
    }

    /** Hosts placed AGENT whose agent reported statistics, and if {@code embedded} every host placed EMBEDDED. */
    Set<UUID> remoteEngineHosts(boolean embedded) {
        return Set.copyOf(jdbc.sql("""
                        SELECT h.id FROM host h LEFT JOIN host_agent a ON a.host_id = h.id
                         WHERE (h.placement = 'AGENT' AND a.stats IS NOT NULL)
                            OR (h.placement = 'EMBEDDED' AND :embedded)""")
                .param("embedded", embedded).query(UUID.class).list());
    }

    @Override
    public Map<UUID, AgentStatus> of(Collection<UUID> hostIds) {
        var statuses = new HashMap<UUID, AgentStatus>();
        if (hostIds.isEmpty()) {
            return statuses;
        }
        // connected by the database's clock, the one last_seen_at was written with, whichever replica wrote it
        jdbc.sql("""
                        SELECT host_id, last_seen_at, agent_version, token_sha256 IS NOT NULL,
                               coalesce(last_seen_at > now() - :within * interval '1 millisecond', false)
                          FROM host_agent WHERE host_id = ANY(:ids)""")
                .param("ids", hostIds.toArray(UUID[]::new))
                .param("within", properties.connectedWithin().toMillis())
                .query(rs -> {
                    var lastSeen = rs.getTimestamp(2);
                    statuses.put(rs.getObject(1, UUID.class), new AgentStatus(rs.getBoolean(5),
                            lastSeen == null ? null : lastSeen.toInstant(), rs.getString(3), rs.getBoolean(4)));
                });
        return statuses;
    }
}
