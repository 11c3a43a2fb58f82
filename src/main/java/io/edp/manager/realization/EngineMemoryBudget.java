package io.edp.manager.realization;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import io.edp.engine.EngineConfig;
import io.edp.manager.api.MemoryBudgetExceededException;
import io.edp.manager.edp.EdpSettings;
import io.edp.manager.host.pnic.DriverSettings;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Admission of embedded engines: every host of the inventory placed EMBEDDED (an agent's engine spends its own
 * host's memory) reserves the memory its engine allocates up front,
 * estimated by the engine from the host's effective EDP settings ({@link EngineConfig#memoryBytes(io.edp.engine.Mode,
 * int, int, int, int, int)}), and all reservations together must fit the budget
 * ({@link EngineProperties#memoryBudgetBytes()}). A host with no NIC yet reserves the engine its first NIC gives it
 * (one worker), so a host that was admitted can always get one.
 * <p>
 * Writes that may grow a reservation run through {@link #admit}: the change is refused (409, rolled back) when it
 * grows the total beyond the budget; a change that shrinks it is always let through. Such writes take one
 * transaction-scoped advisory lock, so two of them cannot both spend the last of the budget.
 */
@Component
public class EngineMemoryBudget {

    /** Key of the advisory lock that serializes budget-changing writes (any fixed number unique in the database). */
    private static final long LOCK = 0x6564_705F_6D65_6DL;

    private final JdbcClient jdbc;
    private final JsonMapper mapper;
    private final EngineProperties engines;

    EngineMemoryBudget(JdbcClient jdbc, JsonMapper mapper, EngineProperties engines) {
        this.jdbc = jdbc;
        this.mapper = mapper;
        this.engines = engines;
    }

    /** Runs {@code change} in the caller's transaction and refuses it if the engines' memory would no longer fit. */
    @Transactional(propagation = Propagation.MANDATORY)
    public <T> T admit(Supplier<T> change) {
        jdbc.sql("SELECT 1 FROM pg_advisory_xact_lock(:lock)").param("lock", LOCK).query(Integer.class).single();
        var before = reservations();
        T result = change.get();
        var after = reservations();
        long reservedBefore = total(before);
        long reservedAfter = total(after);
        long budget = engines.memoryBudgetBytes();
        if (reservedAfter > reservedBefore && reservedAfter > budget) {
            var grown = new TreeMap<String, Long>();
            after.forEach((host, bytes) -> {
                long more = bytes - before.getOrDefault(host, 0L);
                if (more > 0) {
                    grown.put(host, bytes);
                }
            });
            throw new MemoryBudgetExceededException(grown, reservedAfter - reservedBefore,
                    Math.max(0, budget - reservedBefore), budget);
        }
        return result;
    }

    /** Each host's reservation, by host name. */
    private Map<String, Long> reservations() {
        var reservations = new HashMap<String, Long>();
        jdbc.sql("""
                        SELECT host.name, e.settings::text AS settings, p.settings::text AS profile_settings,
                               (SELECT count(DISTINCT n.numa_node) FROM physical_nic n WHERE n.host_id = host.id)
                                   AS nic_nodes,
                               (SELECT count(*) FROM physical_nic n WHERE n.host_id = host.id
                                   AND n.driver_kind = :loopback)
                               + (SELECT count(*) FROM virtual_nic v WHERE v.host_id = host.id) AS loopback_ports
                          FROM host JOIN host_edp e ON e.host_id = host.id
                          LEFT JOIN edp_profile p ON p.name = e.profile
                         WHERE host.placement = 'EMBEDDED'""")
                .param("loopback", DriverSettings.LOOPBACK)
                .query(rs -> {
                    var own = mapper.readValue(rs.getString("settings"), EdpSettings.class);
                    var profile = rs.getString("profile_settings");
                    var effective = own.over(profile == null ? EdpSettings.DEFAULTS
                            : mapper.readValue(profile, EdpSettings.class).over(EdpSettings.DEFAULTS));
                    reservations.put(rs.getString("name"), bytes(effective, rs.getInt("nic_nodes"),
                            rs.getInt("loopback_ports")));
                });
        return reservations;
    }

    /**
     * The host's engine: its workers as set, else one per NUMA node with a physical NIC (as DesiredState builds);
     * a loopback port per loopback physical NIC and per virtual NIC.
     */
    private long bytes(EdpSettings effective, int nicNodes, int loopbackPorts) {
        int workers = 0;
        if (effective.workersPerNumaNode() != null) {
            for (int count : effective.workersPerNumaNode().values()) {
                workers += count;
            }
        } else {
            workers = Math.max(1, nicNodes);
        }
        return EngineConfig.memoryBytes(effective.engineMode(), workers, effective.flowCacheSize(),
                engines.conntrackCapacity(), engines.mbufs(), loopbackPorts);
    }

    private static long total(Map<String, Long> reservations) {
        long sum = 0;
        for (long bytes : reservations.values()) {
            sum += bytes;
        }
        return sum;
    }
}
