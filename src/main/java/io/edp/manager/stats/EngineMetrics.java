package io.edp.manager.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;

import io.edp.engine.Engine;
import io.edp.engine.EngineStats;
import io.edp.manager.packetlog.PacketLogMetrics;
import io.edp.manager.realization.EngineLifecycle;
import io.edp.manager.telemetry.IpfixMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The engines' counters as metrics, labelled by host and worker: registered when a host's engine starts, removed
 * when it stops. Meters read a snapshot that is at most {@link #MAX_AGE_NANOS} old, so one scrape takes one
 * snapshot per engine, not one per meter.
 */
@Component
class EngineMetrics {

    private static final long MAX_AGE_NANOS = 500_000_000L;

    private final MeterRegistry registry;
    private final Map<UUID, Registered> meters = new ConcurrentHashMap<>();

    /**
     * A host's meters and the snapshots they read. Micrometer holds a meter's state object weakly: it is held here,
     * or the collector would reclaim it and the meters would freeze at their last value.
     */
    private record Registered(Snapshots snapshots, List<Meter.Id> ids) {
    }

    EngineMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** An engine's latest snapshot, refreshed when read after it aged. */
    private static final class Snapshots {
        private final Engine engine;
        private volatile EngineStats latest;
        private volatile long takenAt;

        Snapshots(Engine engine) {
            this.engine = engine;
        }

        EngineStats get() {
            long now = System.nanoTime();
            if (latest == null || now - takenAt > MAX_AGE_NANOS) {
                latest = engine.stats();
                takenAt = now;
            }
            return latest;
        }
    }

    @EventListener
    void engineStarted(EngineLifecycle.Started started) {
        removeMeters(started.hostId()); // meters of the same id would otherwise be found, not made
        var snapshots = new Snapshots(started.engine());
        var ids = new ArrayList<Meter.Id>();
        var host = Tags.of("host", started.hostName(), "host_id", started.hostId().toString());
        for (int i = 0; i < started.engine().workerCount(); i++) {
            int worker = i;
            var tags = host.and("worker", Integer.toString(worker));
            counter(ids, "edp.flowcache.hits", "Packets that hit a current flow-cache entry", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().hits());
            counter(ids, "edp.flowcache.misses", "Flow-cache lookups without a usable entry", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().misses());
            counter(ids, "edp.flowcache.slowpath", "Packets that ran the IOChain", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().slowPath());
            counter(ids, "edp.flowcache.insertions", "Flow-cache insertions", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().insertions());
            counter(ids, "edp.flowcache.evictions", "Flow-cache evictions", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().evictions());
            counter(ids, "edp.flowcache.expirations", "Flow-cache expirations", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().expirations());
            counter(ids, "edp.verifier.checks", "Fast-path hits the live verifier re-evaluated", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().verifierChecks());
            counter(ids, "edp.verifier.mismatches", "Fast-path hits the slow path would have decided differently",
                    tags, snapshots, s -> s.workers().get(worker).flowCache().verifierMismatches());
            counter(ids, "edp.worker.rx.packets", "Packets received by the worker", tags, snapshots,
                    s -> s.workers().get(worker).rxPackets());
            counter(ids, "edp.worker.tx.packets", "Packets transmitted by the worker", tags, snapshots,
                    s -> s.workers().get(worker).txPackets());
            counter(ids, "edp.worker.exceptions", "Throwables the worker's duty cycle caught", tags, snapshots,
                    s -> s.workers().get(worker).exceptions());
            ids.add(Gauge.builder("edp.worker.running", snapshots,
                            s -> s.get().workers().get(worker).health().isRunning() ? 1 : 0)
                    .description("1 while the worker runs, 0 when it stalled or died (see /stats/threads)")
                    .tags(tags).register(registry).getId());
            ids.add(Gauge.builder("edp.flowcache.entries", snapshots,
                            s -> s.get().workers().get(worker).flowCache().entries())
                    .description("Entries in the worker's flow cache").tags(tags).register(registry).getId());
            ids.add(Gauge.builder("edp.worker.utilization", snapshots,
                            s -> s.get().workers().get(worker).utilization())
                    .description("Busy share of the worker's life, 0..1").tags(tags).register(registry).getId());
        }
        // the snapshots hold the engine, and the engine its packet log, for Micrometer's weak references
        ids.addAll(IpfixMetrics.register(registry, host, started.engine()));
        ids.addAll(PacketLogMetrics.register(registry, host, started.engine().packetLog()));
        meters.put(started.hostId(), new Registered(snapshots, ids));
    }

    private void counter(List<Meter.Id> ids, String name, String description, Tags tags, Snapshots snapshots,
                         ToLongFunction<EngineStats> value) {
        ids.add(FunctionCounter.builder(name, snapshots, s -> value.applyAsLong(s.get()))
                .description(description).tags(tags).register(registry).getId());
    }

    @EventListener
    void engineStopped(EngineLifecycle.Stopped stopped) {
        removeMeters(stopped.hostId());
    }

    private void removeMeters(UUID hostId) {
        var registered = meters.remove(hostId);
        if (registered != null) {
            registered.ids().forEach(registry::remove);
        }
    }
}
