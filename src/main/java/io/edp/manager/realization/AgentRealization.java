package io.edp.manager.realization;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.edp.manager.engines.HostDataPath;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Realization for hosts placed AGENT: the agent reads the whole desired state, built by the same
 * {@link DesiredState} the reconciler pushes from, and reports what it applied into the same host_realization
 * row, so the realization read, its long poll and a write's wait see an agent host as they see an embedded one.
 */
@Component
public class AgentRealization {

    private final DesiredState desiredState;
    private final RealizationRepository realizations;
    private final RealizationProperties properties;
    private final TransactionTemplate tx;
    private final JdbcClient jdbc;

    AgentRealization(DesiredState desiredState, RealizationRepository realizations, RealizationProperties properties,
                     TransactionTemplate tx, JdbcClient jdbc) {
        this.desiredState = desiredState;
        this.realizations = realizations;
        this.properties = properties;
        this.tx = tx;
        this.jdbc = jdbc;
    }

    /**
     * What the host should run now, at its current desired generation; empty if the host is gone. One snapshot
     * (REPEATABLE READ), so the generation names exactly the state built.
     *
     * @throws IllegalArgumentException when the settings do not make a valid engine configuration
     */
    @Transactional(readOnly = true, isolation = Isolation.REPEATABLE_READ)
    public Optional<HostDataPath> desired(UUID hostId) {
        return realizations.desiredGeneration(hostId).flatMap(generation -> desiredState.read(hostId, generation));
    }

    /** The desired generation of each of {@code hostIds} that exists. */
    public Map<UUID, Long> desiredGenerations(Collection<UUID> hostIds) {
        var generations = new HashMap<UUID, Long>();
        jdbc.sql("SELECT host_id, desired_generation FROM host_realization WHERE host_id = ANY(:ids)")
                .param("ids", hostIds.toArray(UUID[]::new))
                .query(rs -> {
                    generations.put(rs.getObject(1, UUID.class), rs.getLong(2));
                });
        return generations;
    }

    /** The agent runs {@code generation}: SUCCESS (or PENDING again when a newer change is waiting). */
    public void succeeded(UUID hostId, long generation) {
        // the realization's long polls, on every replica, hear of it from the database (V6_2's trigger)
        tx.executeWithoutResult(status -> realizations.succeeded(hostId, generation));
    }

    /**
     * The agent could not apply its desired state: FAILED with the reason. It keeps what it ran (a refused live
     * change leaves the engine as it was) and retries by itself, so the realized generation stays.
     */
    public void failed(UUID hostId, String reason) {
        tx.executeWithoutResult(status -> realizations.failed(hostId, reason, false, properties.retryInitial(),
                properties.retryMax()));
    }
}
