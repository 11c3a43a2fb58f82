package io.edp.manager.realization;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import io.edp.engine.EngineConfig;
import io.edp.manager.api.MemoryBudgetExceededException;
import io.edp.manager.capture.CaptureProperties;
import io.edp.manager.edp.EdpSettings;
import io.edp.manager.edp.HostEdpService;
import io.edp.manager.engines.EngineProperties;
import io.edp.manager.host.EngineAdmission;
import io.edp.manager.host.HostInventories.HostInventory;
import io.edp.manager.host.HostInventories;
import io.edp.manager.host.Placement;
import io.edp.manager.host.pnic.DriverSettings;
import org.springframework.context.annotation.Lazy;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Admission of embedded engines: every host of the inventory placed EMBEDDED (an agent's engine spends its own
 * host's memory) reserves the memory its engine allocates up front,
 * estimated by the engine from the host's effective EDP settings ({@link EngineConfig#memoryBytes(io.edp.engine.Mode,
 * int, int, int, int, int)}) plus the rings of the captures it may run ({@link CaptureProperties#ringBytes}), and all
 * reservations together must fit the budget
 * ({@link EngineProperties#memoryBudgetBytes()}). A host with no NIC yet reserves the engine its first NIC gives it
 * (one worker), so a host that was admitted can always get one.
 * <p>
 * Writes that may grow a reservation run through {@link #admit}: the change is refused (409, rolled back) when it
 * grows the total beyond the budget; a change that shrinks it is always let through. Such writes take one
 * transaction-scoped advisory lock, so two of them cannot both spend the last of the budget.
 */
@Component
class EngineMemoryBudget implements EngineAdmission {

    /** Key of the advisory lock that serializes budget-changing writes (any fixed number unique in the database). */
    private static final long LOCK = 0x6564_705F_6D65_6DL;

    private final JdbcClient jdbc;
    private final HostInventories inventories;
    private final HostEdpService edp;
    private final EngineProperties engines;
    private final CaptureProperties captures;

    /** {@code edp} is resolved on first use: its writes are admitted here, so it cannot be built before. */
    EngineMemoryBudget(JdbcClient jdbc, HostInventories inventories, @Lazy HostEdpService edp,
                       EngineProperties engines, CaptureProperties captures) {
        this.jdbc = jdbc;
        this.inventories = inventories;
        this.edp = edp;
        this.engines = engines;
        this.captures = captures;
    }

    /** Runs {@code change} in the caller's transaction and refuses it if the engines' memory would no longer fit. */
    @Override
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

    /** Each embedded host's reservation, by host name. */
    private Map<String, Long> reservations() {
        var hosts = inventories.placed(Placement.EMBEDDED);
        var settings = edp.effective(hosts.keySet());
        var reservations = new HashMap<String, Long>();
        hosts.forEach((id, host) -> {
            var effective = settings.get(id);
            if (effective != null) {
                reservations.put(host.name(), bytes(effective, host));
            }
        });
        return reservations;
    }

    /**
     * The host's engine: its workers as set, else one per NUMA node with a physical NIC (as DesiredState builds);
     * a loopback port per loopback physical NIC and per virtual NIC; and the rings of as many captures as may run
     * on it at once (allocated when they start, but reserved here so that starting one cannot exceed the budget).
     */
    private long bytes(EdpSettings effective, HostInventory host) {
        int loopbackPorts = host.virtual().size();
        for (var nic : host.physical()) {
            if (nic.driver().equals(DriverSettings.LOOPBACK)) {
                loopbackPorts++;
            }
        }
        int workers = 0;
        for (int count : host.workers(effective.workersPerNumaNode()).values()) {
            workers += count;
        }
        return EngineConfig.memoryBytes(effective.engineMode(), workers, effective.flowCacheSize(),
                engines.conntrackCapacity(), engines.mbufs(), loopbackPorts) + captures.ringBytes(workers);
    }

    private static long total(Map<String, Long> reservations) {
        long sum = 0;
        for (long bytes : reservations.values()) {
            sum += bytes;
        }
        return sum;
    }
}
