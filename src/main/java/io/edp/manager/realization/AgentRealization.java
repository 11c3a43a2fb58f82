package io.edp.manager.realization;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.edp.engine.EngineConfig;
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
     * The engine configuration the host's agent runs, as far as the database can tell: the one built at the host's
     * desired generation once its agent reported running that generation; empty while it runs an older one (or
     * none), since only the current generation can be built: the database keeps no older settings.
     */
    @Transactional(readOnly = true, isolation = Isolation.REPEATABLE_READ)
    public Optional<EngineConfig> realizedByAgent(UUID hostId) {
        return realizations.status(hostId).filter(status -> status.realizedGeneration() == status.desiredGeneration())
                .flatMap(status -> desiredState.read(hostId, status.desiredGeneration()))
                .map(HostDataPath::engine);
    }

    /** What an agent is to run: its host's desired state, or why its settings make no valid configuration. */
    public sealed interface AgentDesired {

        /** {@code desired}: without an engine (null) for a host not placed AGENT, whose manager runs it. */
        record Runs(HostDataPath desired) implements AgentDesired {
        }

        record Invalid(String reason) implements AgentDesired {
        }
    }

    /**
     * What each of {@code hostIds} that exists should run now, at its current desired generation, as its agent is
     * to run it. One snapshot (REPEATABLE READ) for them all, and a constant number of queries: the settings every
     * host shares (rules, routes, gateways, collectors, syslog servers) read once, the hosts' own (names, EDP
     * settings, NICs) one query each for all of them. A change that wakes many agents cost a transaction and a
     * dozen queries per host before.
     */
    @Transactional(readOnly = true, isolation = Isolation.REPEATABLE_READ)
    public Map<UUID, AgentDesired> forAgents(Collection<UUID> hostIds) {
        record Row(UUID hostId, long generation, boolean placedAgent) {
        }
        var rows = jdbc.sql("""
                        SELECT r.host_id, r.desired_generation, h.placement = 'AGENT'
                          FROM host_realization r JOIN host h ON h.id = r.host_id WHERE r.host_id = ANY(:ids)""")
                .param("ids", hostIds.toArray(UUID[]::new))
                .query((rs, i) -> new Row(rs.getObject(1, UUID.class), rs.getLong(2), rs.getBoolean(3))).list();
        var shared = desiredState.shared();
        var inventories = desiredState.inventories(rows.stream().map(Row::hostId).toList());
        var desired = new HashMap<UUID, AgentDesired>();
        for (var row : rows) {
            var inventory = inventories.get(row.hostId());
            if (inventory == null) {
                continue; // deleted meanwhile
            }
            try {
                var built = desiredState.build(row.hostId(), row.generation(), inventory, shared);
                desired.put(row.hostId(), new AgentDesired.Runs(row.placedAgent() ? built
                        : new HostDataPath(built.hostId(), built.hostName(), built.generation(), null)));
            } catch (IllegalArgumentException e) {
                desired.put(row.hostId(), new AgentDesired.Invalid(e.getMessage()));
            }
        }
        return desired;
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
     * {@link #succeeded}, in one statement, if the host is placed AGENT and {@code generation} is not ahead of its
     * desired one; whether it was (else nothing is written, and the caller says what was wrong). Every agent
     * reports after every change: checking first cost two more queries each.
     */
    public boolean succeededByAgent(UUID hostId, long generation) {
        return Boolean.TRUE.equals(tx.execute(status -> realizations.succeededByAgent(hostId, generation)));
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
