package io.edp.manager.engines;

import java.util.HashSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.edp.engine.Engine;
import io.edp.engine.EngineSlot;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.worker.WorkerHealth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * One engine per host, in this process, each in an {@link EngineSlot}: a push applies what a running engine can take
 * live and rebuilds it otherwise (or when a worker is not running), keeping its connections and rule counters. A
 * push returns once every worker runs the pushed configuration. The engine of a host placed AGENT runs in its agent:
 * {@link #engine} finds it through {@link RemoteEngines}.
 */
@Component
class EmbeddedEngines implements HostEngines, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedEngines.class);

    private final ConcurrentMap<UUID, Hosted> engines = new ConcurrentHashMap<>();
    private final ApplicationEventPublisher events;
    private final NicDrivers drivers;
    private final RemoteEngines remote;

    /** {@code drivers}: the host module's confined drivers (its {@code NicConfinement}). */
    EmbeddedEngines(ApplicationEventPublisher events, NicDrivers drivers, RemoteEngines remote) {
        this.events = events;
        this.drivers = drivers;
        this.remote = remote;
    }

    /** A host's slot, the handle of the engine it runs, and the generation that engine runs. */
    private final class Hosted implements EngineSlot.Listener {
        private final UUID hostId;
        private final String hostName;
        private final EngineSlot slot;
        private volatile InProcessEngine handle;
        private volatile long generation;

        Hosted(UUID hostId, String hostName) {
            this.hostId = hostId;
            this.hostName = hostName;
            this.slot = new EngineSlot(drivers, this);
        }

        @Override
        public void started(Engine engine) {
            handle = new InProcessEngine(engine);
            var config = engine.config();
            log.info("Engine of host {} started: {} ports, {} workers, {}", hostName, config.ports().size(),
                    config.workerCount(), config.mode());
            events.publishEvent(new EngineLifecycle.Started(hostId, hostName, handle));
        }

        @Override
        public void reconfigured(Engine engine) {
            events.publishEvent(new EngineLifecycle.Reconfigured(hostId, handle));
        }

        @Override
        public void stopping(Engine engine) {
            events.publishEvent(new EngineLifecycle.Stopped(hostId, handle));
            handle = null;
        }
    }

    @Override
    public void push(HostDataPath desired) {
        if (desired.engine() == null) {
            remove(desired.hostId());
            return;
        }
        // compute() serializes pushes per host; different hosts proceed in parallel
        var failure = new RuntimeException[1];
        engines.compute(desired.hostId(), (id, hosted) -> {
            var host = hosted != null ? hosted : new Hosted(id, desired.hostName());
            host.slot.fault().ifPresent(f -> log.warn("Engine of host {} is rebuilt: {}", desired.hostName(),
                    f.reason()));
            try {
                host.slot.push(desired.engine());
                host.generation = desired.generation();
                if (host.handle != null) {
                    host.handle.runs(desired.generation());
                }
            } catch (RuntimeException e) {
                failure[0] = e; // a refused live change leaves the engine as it was; a failed rebuild leaves none
            }
            return host.handle == null ? null : host;
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    @Override
    public void remove(UUID hostId) {
        engines.computeIfPresent(hostId, (id, hosted) -> {
            hosted.slot.close();
            return null;
        });
    }

    @Override
    public OptionalLong generation(UUID hostId) {
        var hosted = engines.get(hostId);
        return hosted != null ? OptionalLong.of(hosted.generation) : remote.generation(hostId);
    }

    @Override
    public Set<UUID> hosts() {
        return Set.copyOf(engines.keySet());
    }

    @Override
    public Set<UUID> reachable() {
        var hosts = new HashSet<>(engines.keySet());
        hosts.addAll(remote.hosts());
        return hosts;
    }

    @Override
    public Optional<HostEngine> engine(UUID hostId) {
        var hosted = engines.get(hostId);
        return hosted != null ? Optional.ofNullable(hosted.handle) : remote.engine(hostId);
    }

    @Override
    public Optional<String> fault(UUID hostId) {
        return Optional.ofNullable(engines.get(hostId)).flatMap(hosted -> hosted.slot.fault())
                .map(WorkerHealth::reason);
    }

    @Override
    public void destroy() {
        engines.keySet().forEach(this::remove);
    }
}
