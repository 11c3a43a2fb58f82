package io.edp.manager.realization;

import java.time.InstantSource;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.time.SystemClock;
import io.edp.engine.tlb.EngineBalancing;
import io.edp.engine.tlb.ThreadLoadBalancer;
import io.edp.engine.tlb.TlbConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * One engine per host, in this process, each with its Thread Load Balancer. A push applies what a running engine
 * can take live (mode, vNICs, rules, routes, flow cache, added or removed ports); one that changes its workers, its
 * memory or a port it keeps rebuilds it. A change of the TLB settings restarts the balancer only.
 */
@Component
class EmbeddedEngines implements HostEngines, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedEngines.class);

    /** A host's engine and the balancer that moves its queues. */
    private record Running(Engine engine, ThreadLoadBalancer balancer) {
    }

    private final ConcurrentMap<UUID, Running> running = new ConcurrentHashMap<>();
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
        running.compute(desired.hostId(), (id, current) -> {
            boolean live = current != null && liveChange(current.engine().config(), desired.engine());
            try {
                return live ? applied(desired, current) : rebuilt(desired, current);
            } catch (RuntimeException e) {
                failure[0] = e;
                // a refused live change leaves the engine as it was; a failed rebuild leaves none
                return live ? current : null;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    private Running applied(HostDataPath desired, Running current) {
        var engine = current.engine();
        if (!engine.config().equals(desired.engine())) {
            engine.apply(desired.engine()); // throws before changing anything when the engine refuses it
        }
        if (current.balancer().config().equals(desired.tlb())) {
            return current;
        }
        current.balancer().close();
        return new Running(engine, balancer(engine, desired.tlb()));
    }

    private Running rebuilt(HostDataPath desired, Running current) {
        if (current != null) {
            stop(desired.hostId(), current);
        }
        var next = desired.engine();
        var engine = Engine.start(next, drivers, SystemClock.INSTANCE);
        log.info("Engine of host {} started: {} ports, {} workers, {}", desired.hostName(), next.ports().size(),
                next.workerCount(), next.mode());
        events.publishEvent(new EngineLifecycle.Started(desired.hostId(), desired.hostName(), engine));
        return new Running(engine, balancer(engine, desired.tlb()));
    }

    private static ThreadLoadBalancer balancer(Engine engine, TlbConfig config) {
        var balancer = new ThreadLoadBalancer(config, new EngineBalancing(engine), InstantSource.system());
        balancer.start(); // does nothing when the TLB is off
        return balancer;
    }

    /** What a running engine cannot change: its workers, its memory, and the settings of a port it keeps. */
    private static boolean liveChange(EngineConfig current, EngineConfig next) {
        if (!current.workersPerNumaNode().equals(next.workersPerNumaNode()) || current.mbufs() != next.mbufs()
                || current.conntrackCapacity() != next.conntrackCapacity()) {
            return false;
        }
        for (PortConfig port : next.ports()) {
            for (PortConfig kept : current.ports()) {
                if (kept.id() == port.id() && !kept.equals(port)) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public void remove(UUID hostId) {
        running.computeIfPresent(hostId, (id, current) -> {
            stop(id, current);
            return null;
        });
    }

    private void stop(UUID hostId, Running current) {
        current.balancer().close();
        events.publishEvent(new EngineLifecycle.Stopped(hostId, current.engine()));
        current.engine().close();
    }

    @Override
    public Set<UUID> hosts() {
        return Set.copyOf(running.keySet());
    }

    @Override
    public Optional<Engine> engine(UUID hostId) {
        return Optional.ofNullable(running.get(hostId)).map(Running::engine);
    }

    @Override
    public Optional<ThreadLoadBalancer> balancer(UUID hostId) {
        return Optional.ofNullable(running.get(hostId)).map(Running::balancer);
    }

    @Override
    public void destroy() {
        running.keySet().forEach(this::remove);
    }
}
