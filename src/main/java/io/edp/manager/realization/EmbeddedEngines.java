package io.edp.manager.realization;

import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.time.SystemClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * One engine per host, in this process. A push that changes only what an engine can take live (mode, vNIC
 * addresses, rules, routes, flow cache) is applied live; one that changes its ports or workers rebuilds it.
 */
@Component
class EmbeddedEngines implements HostEngines, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedEngines.class);

    private final ConcurrentMap<UUID, Engine> engines = new ConcurrentHashMap<>();
    private final ApplicationEventPublisher events;
    private final NicDrivers drivers;

    EmbeddedEngines(ApplicationEventPublisher events, EngineProperties properties) {
        this.events = events;
        this.drivers = properties.realDrivers() ? NicDrivers.standard() : NicDrivers.withLoopback();
    }

    @Override
    public void push(HostDataPath desired) {
        if (desired.engine() == null) {
            remove(desired.hostId());
            return;
        }
        // compute() serializes pushes per host; different hosts proceed in parallel
        var failure = new RuntimeException[1];
        engines.compute(desired.hostId(), (id, running) -> {
            EngineConfig next = desired.engine();
            if (running != null && sameShape(running.config(), next)) {
                if (!running.config().equals(next)) {
                    running.apply(next); // throws before changing anything when the engine refuses it
                }
                return running;
            }
            if (running != null) {
                stop(id, running);
            }
            try {
                var started = Engine.start(next, drivers, SystemClock.INSTANCE);
                log.info("Engine of host {} started: {} ports, {} workers, {}", desired.hostName(),
                        next.ports().size(), next.workerCount(), next.mode());
                events.publishEvent(new EngineLifecycle.Started(id, desired.hostName(), started));
                return started;
            } catch (RuntimeException e) {
                failure[0] = e; // the old engine is closed already: the host runs none now
                return null;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    /** What a running engine cannot change: its ports, workers and memory. */
    private static boolean sameShape(EngineConfig running, EngineConfig next) {
        return running.ports().equals(next.ports()) && running.workersPerNumaNode().equals(next.workersPerNumaNode())
                && running.mbufs() == next.mbufs() && running.conntrackCapacity() == next.conntrackCapacity();
    }

    @Override
    public void remove(UUID hostId) {
        engines.computeIfPresent(hostId, (id, running) -> {
            stop(id, running);
            return null;
        });
    }

    private void stop(UUID hostId, Engine engine) {
        events.publishEvent(new EngineLifecycle.Stopped(hostId, engine));
        engine.close();
    }

    @Override
    public Set<UUID> hosts() {
        return Set.copyOf(engines.keySet());
    }

    @Override
    public Optional<Engine> engine(UUID hostId) {
        return Optional.ofNullable(engines.get(hostId));
    }

    @Override
    public void destroy() {
        engines.keySet().forEach(this::remove);
    }
}
