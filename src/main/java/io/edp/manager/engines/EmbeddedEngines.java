package io.edp.manager.engines;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.time.SystemClock;
import io.edp.engine.worker.WorkerHealth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * One engine per host, in this process. A push applies what a running engine can take live (mode, vNICs, rules,
 * routes, flow cache, Thread Load Balancer, added or removed ports, a port's MTU); one that changes its workers, its
 * memory or another setting of a port it keeps rebuilds it, handing the old engine's connection table and rule counters to the new one so no
 * connection is cut and no kept rule's counts restart; so
 * does any push to an engine with a worker that is not running (dead or stalled): a new engine is the only cure.
 * A push returns once every worker runs the pushed configuration.
 */
@Component
class EmbeddedEngines implements HostEngines, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedEngines.class);

    private final ConcurrentMap<UUID, InProcessEngine> engines = new ConcurrentHashMap<>();
    private final ConcurrentMap<UUID, Long> generations = new ConcurrentHashMap<>(); // written under engines' lock
    private final ApplicationEventPublisher events;
    private final NicDrivers drivers;

    /** {@code drivers}: the host module's confined drivers (its {@code NicConfinement}). */
    EmbeddedEngines(ApplicationEventPublisher events, NicDrivers drivers) {
        this.events = events;
        this.drivers = drivers;
    }

    @Override
    public void push(HostDataPath desired) {
        if (desired.engine() == null) {
            remove(desired.hostId());
            return;
        }
        // compute() serializes pushes per host; different hosts proceed in parallel
        var failure = new RuntimeException[1];
        engines.compute(desired.hostId(), (id, handle) -> {
            var running = handle == null ? null : handle.engine();
            var fault = running == null ? Optional.<WorkerHealth>empty() : running.fault();
            fault.ifPresent(f -> log.warn("Engine of host {} is rebuilt: {}", desired.hostName(), f.reason()));
            boolean live = running != null && fault.isEmpty() && liveChange(running.config(), desired.engine());
            try {
                var next = handle;
                if (!live) {
                    next = rebuilt(desired, handle);
                } else if (!running.config().equals(desired.engine())) {
                    running.apply(desired.engine()); // throws before changing anything when refused
                    events.publishEvent(new EngineLifecycle.Reconfigured(id, handle));
                }
                generations.put(id, desired.generation());
                return next;
            } catch (RuntimeException e) {
                failure[0] = e;
                // a refused live change leaves the engine as it was; a failed rebuild leaves none
                if (!live) {
                    generations.remove(id);
                }
                return live ? handle : null;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    private InProcessEngine rebuilt(HostDataPath desired, InProcessEngine running) {
        if (running != null) {
            stop(desired.hostId(), running);
        }
        var next = desired.engine();
        var engine = new InProcessEngine(running == null ? Engine.start(next, drivers, SystemClock.INSTANCE)
                : Engine.start(next, drivers, SystemClock.INSTANCE, running.engine())); // its connections, counters
        log.info("Engine of host {} started: {} ports, {} workers, {}", desired.hostName(), next.ports().size(),
                next.workerCount(), next.mode());
        events.publishEvent(new EngineLifecycle.Started(desired.hostId(), desired.hostName(), engine));
        return engine;
    }

    /**
     * What a running engine cannot change: its workers, its memory, and the settings of a port it keeps, but for
     * the port's MTU (as {@link Engine#apply} allows).
     */
    private static boolean liveChange(EngineConfig current, EngineConfig next) {
        if (!current.workersPerNumaNode().equals(next.workersPerNumaNode()) || current.mbufs() != next.mbufs()
                || current.conntrackCapacity() != next.conntrackCapacity()) {
            return false;
        }
        for (PortConfig port : next.ports()) {
            for (PortConfig kept : current.ports()) {
                if (kept.id() == port.id() && !kept.withMtu(port.mtu()).equals(port)) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public void remove(UUID hostId) {
        engines.computeIfPresent(hostId, (id, running) -> {
            stop(id, running);
            generations.remove(id);
            return null;
        });
    }

    private void stop(UUID hostId, InProcessEngine engine) {
        events.publishEvent(new EngineLifecycle.Stopped(hostId, engine));
        engine.engine().close();
    }

    @Override
    public OptionalLong generation(UUID hostId) {
        Long generation = generations.get(hostId);
        return generation == null ? OptionalLong.empty() : OptionalLong.of(generation);
    }

    @Override
    public Set<UUID> hosts() {
        return Set.copyOf(engines.keySet());
    }

    @Override
    public Optional<HostEngine> engine(UUID hostId) {
        return Optional.ofNullable(engines.get(hostId));
    }

    @Override
    public Optional<String> fault(UUID hostId) {
        return Optional.ofNullable(engines.get(hostId)).flatMap(e -> e.engine().fault()).map(WorkerHealth::reason);
    }

    @Override
    public void destroy() {
        engines.keySet().forEach(this::remove);
    }
}
