package io.edp.manager.telemetry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;

import io.edp.engine.Engine;
import io.edp.engine.telemetry.IpfixStats;
import io.edp.manager.realization.EngineLifecycle;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The engines' IPFIX counters as metrics, labelled by host: registered when a host's engine starts, removed when it
 * stops (as the engine metrics of the stats feature).
 */
@Component
class TelemetryMetrics {

    private final MeterRegistry registry;
    /** The engines are held here: Micrometer holds a meter's state object weakly. */
    private final Map<UUID, Registered> meters = new ConcurrentHashMap<>();

    private record Registered(Engine engine, List<Meter.Id> ids) {
    }

    TelemetryMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @EventListener
    void engineStarted(EngineLifecycle.Started started) {
        removeMeters(started.hostId());
        var ids = new ArrayList<Meter.Id>();
        var tags = Tags.of("host", started.hostName(), "host_id", started.hostId().toString());
        Engine engine = started.engine();
        counter(ids, engine, "edp.ipfix.records", "IPFIX data records exported", tags,
                IpfixStats::recordsExported);
        counter(ids, engine, "edp.ipfix.messages", "IPFIX messages sent, once per collector", tags,
                IpfixStats::messagesSent);
        counter(ids, engine, "edp.ipfix.templates", "IPFIX template records sent", tags, IpfixStats::templatesSent);
        counter(ids, engine, "edp.ipfix.errors", "IPFIX sends that failed", tags, IpfixStats::exportErrors);
        counter(ids, engine, "edp.ipfix.records.dropped", "Flow records lost: the exporter's queue was full", tags,
                IpfixStats::recordsDropped);
        ids.add(Gauge.builder("edp.ipfix.flows.active", engine, e -> e.ipfixStats().flowsActive())
                .description("Flows whose counters wait to be exported").tags(tags).register(registry).getId());
        meters.put(started.hostId(), new Registered(engine, ids));
    }

    private void counter(List<Meter.Id> ids, Engine engine, String name, String description, Tags tags,
                         ToLongFunction<IpfixStats> value) {
        ids.add(FunctionCounter.builder(name, engine, e -> value.applyAsLong(e.ipfixStats()))
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
