package io.edp.manager.realization;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.edp.manager.api.SqlPages;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The host_realization table: claims with row locks ({@code FOR UPDATE SKIP LOCKED}, so replicas sharing the
 * database never claim the same host) and leases (so a claimed host shows IN_PROGRESS without a transaction held
 * open during the push). Callers run these in transactions. Its leases and retries take their lengths from
 * {@link RealizationProperties}, bound here because every replica records realizations (reconciler or not).
 */
@Repository
@EnableConfigurationProperties(RealizationProperties.class)
class RealizationRepository {

    private static final String STATUS = """
            SELECT host_id, desired_generation, realized_generation, state, failure_reason, attempts,
                   last_attempt_at, last_success_at, next_attempt_at FROM host_realization""";

    /**
     * The reconciler's hosts: those placed EMBEDDED. An AGENT host is realized by its agent, which reports through
     * {@link #succeeded} and {@link #failed}; the reconciler never claims it.
     */
    private static final String EMBEDDED =
            "EXISTS (SELECT 1 FROM host WHERE host.id = host_id AND host.placement = 'EMBEDDED')";
    private static final String AGENT = EMBEDDED.replace("'EMBEDDED'", "'AGENT'");

    private final JdbcClient jdbc;

    RealizationRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    record Claim(UUID hostId, long generation) {
    }

    /**
     * The reconciler's own transactions do not wait for their commit to reach the disk: a lost lease or result
     * after a crash costs nothing, because every host is pushed again at start-up. (Desired state is written by
     * the API's transactions, which stay fully durable.)
     */
    private void skipCommitFlush() {
        jdbc.sql("SET LOCAL synchronous_commit = off").update();
    }

    /** Locks and leases one host whose desired generation is ahead and whose retry is due. */
    Optional<Claim> claimDue(Duration lease) {
        skipCommitFlush();
        return jdbc.sql("""
                        SELECT host_id, desired_generation FROM host_realization
                         WHERE realized_generation < desired_generation AND next_attempt_at <= now()
                           AND (lease_until IS NULL OR lease_until < now()) AND %s
                         ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED""".formatted(EMBEDDED))
                .query((rs, i) -> new Claim(rs.getObject(1, UUID.class), rs.getLong(2)))
                .optional()
                .map(claim -> lease(claim, lease));
    }

    /**
     * Locks and leases host {@code hostId} whatever its generations, with {@code reason} as what it is doing: the
     * start-up rebuild of its engine.
     */
    Optional<Claim> claim(UUID hostId, Duration lease, String reason) {
        skipCommitFlush();
        return jdbc.sql("SELECT host_id, desired_generation FROM host_realization WHERE host_id = :id AND "
                        + EMBEDDED + " FOR UPDATE SKIP LOCKED")
                .param("id", hostId)
                .query((rs, i) -> new Claim(rs.getObject(1, UUID.class), rs.getLong(2)))
                .optional()
                .map(claim -> lease(claim, lease))
                .map(claim -> {
                    jdbc.sql("UPDATE host_realization SET failure_reason = :reason WHERE host_id = :id")
                            .param("id", hostId).param("reason", reason).update();
                    return claim;
                });
    }

    /**
     * Every host not leased by a live push is PENDING with {@code reason}: at start-up no engine runs yet, whatever
     * the states recorded before (a lease of a process that died is void too).
     */
    void awaitStartUpPush(String reason) {
        skipCommitFlush();
        jdbc.sql("UPDATE host_realization SET state = 'PENDING', failure_reason = :reason, lease_until = NULL "
                        + "WHERE (lease_until IS NULL OR lease_until < now()) AND " + EMBEDDED)
                .param("reason", reason).update();
    }

    private Claim lease(Claim claim, Duration lease) {
        jdbc.sql("UPDATE host_realization SET state = 'IN_PROGRESS', last_attempt_at = now(), "
                        + "lease_until = now() + :lease * interval '1 millisecond' WHERE host_id = :id")
                .param("id", claim.hostId()).param("lease", lease.toMillis()).update();
        return claim;
    }

    /** The engine runs {@code generation}: SUCCESS, unless a change arrived meanwhile (then PENDING again). */
    void succeeded(UUID hostId, long generation) {
        succeeded(hostId, generation, "");
    }

    /**
     * {@link #succeeded}, for a host placed AGENT whose desired generation is at least {@code generation} only:
     * whether it was one. What an agent's report must be, checked in the statement that records it.
     */
    boolean succeededByAgent(UUID hostId, long generation) {
        return succeeded(hostId, generation, " AND :generation <= desired_generation AND " + AGENT);
    }

    private boolean succeeded(UUID hostId, long generation, String condition) {
        skipCommitFlush();
        return jdbc.sql("""
                        UPDATE host_realization
                           SET realized_generation = GREATEST(realized_generation, :generation),
                               state = CASE WHEN GREATEST(realized_generation, :generation) >= desired_generation
                                            THEN 'SUCCESS' ELSE 'PENDING' END,
                               failure_reason = NULL, attempts = 0, lease_until = NULL, last_success_at = now(),
                               next_attempt_at = now()
                         WHERE host_id = :id""" + condition)
                .param("id", hostId).param("generation", generation).update() == 1;
    }

    /**
     * The push failed: FAILED with the reason, retried after {@code retryInitial} doubled per earlier failure, at
     * most {@code retryMax}. {@code engineLost}: the host runs nothing now (a failed rebuild), so nothing counts as
     * realized and the retry is due whatever the generations say.
     */
    void failed(UUID hostId, String reason, boolean engineLost, Duration retryInitial, Duration retryMax) {
        fail(hostId, reason, engineLost, retryInitial, retryMax, "");
    }

    /**
     * A worker of the host's engine died or stalled after a successful push: FAILED with the reason, and nothing
     * counts as realized, so a retry (which rebuilds the engine) is due after the backoff. Only from SUCCESS: in
     * any other state a push is due or under way, and it rebuilds the engine anyway.
     */
    void engineFailed(UUID hostId, String reason, Duration retryInitial, Duration retryMax) {
        fail(hostId, reason, true, retryInitial, retryMax, " AND state = 'SUCCESS'");
    }

    private void fail(UUID hostId, String reason, boolean engineLost, Duration retryInitial, Duration retryMax,
                      String condition) {
        skipCommitFlush();
        jdbc.sql("""
                        UPDATE host_realization
                           SET state = 'FAILED', failure_reason = :reason, attempts = attempts + 1, lease_until = NULL,
                               realized_generation = CASE WHEN :lost THEN 0 ELSE realized_generation END,
                               next_attempt_at = now() + LEAST(:max, :initial * power(2, LEAST(attempts, 30)))
                                                 * interval '1 millisecond'
                         WHERE host_id = :id""" + condition)
                .param("id", hostId)
                .param("reason", reason.length() > 1000 ? reason.substring(0, 1000) : reason)
                .param("lost", engineLost)
                .param("initial", retryInitial.toMillis())
                .param("max", retryMax.toMillis())
                .update();
    }

    /** The hosts whose engines this manager runs (placement EMBEDDED). */
    List<UUID> embeddedHostIds() {
        return jdbc.sql("SELECT host_id FROM host_realization WHERE " + EMBEDDED).query(UUID.class).list();
    }

    Optional<Long> desiredGeneration(UUID hostId) {
        return jdbc.sql("SELECT desired_generation FROM host_realization WHERE host_id = :id").param("id", hostId)
                .query(Long.class).optional();
    }

    Optional<RealizationStatus> status(UUID hostId) {
        return jdbc.sql(STATUS + " WHERE host_id = :id").param("id", hostId).query(RealizationRepository::row)
                .optional();
    }

    Page<RealizationStatus> page(Pageable pageable) {
        return SqlPages.page(jdbc, STATUS, Map.of("hostId", "host_id", "id", "host_id"), "host_realization",
                SqlPages.Filter.NONE, RealizationRepository::row,
                pageable);
    }

    private static RealizationStatus row(ResultSet rs, int rowNum) throws SQLException {
        return new RealizationStatus(rs.getObject("host_id", UUID.class), rs.getLong("desired_generation"),
                rs.getLong("realized_generation"), RealizationState.valueOf(rs.getString("state")),
                rs.getString("failure_reason"), rs.getInt("attempts"), instant(rs.getTimestamp("last_attempt_at")),
                instant(rs.getTimestamp("last_success_at")), instant(rs.getTimestamp("next_attempt_at")));
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
