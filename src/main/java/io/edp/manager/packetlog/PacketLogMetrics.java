package io.edp.manager.packetlog;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;

import io.edp.engine.packetlog.PacketLog;
import io.edp.engine.packetlog.PacketLogStats;
import io.edp.manager.realization.EngineLifecycle;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * A host's packet-log counters as metrics ({@code edp_packetlog_*_total} in Prometheus), labelled by host:
 * registered when its engine starts, removed when it stops. The log's counters are a few sums: read directly.
 */
@Component
class PacketLogMetrics {

    private final MeterRegistry registry;
    /** The meters of each host, with the log they read (held here: Micrometer holds it weakly). */
    private final Map<UUID, Registered> meters = new ConcurrentHashMap<>();

    private record Registered(PacketLog log, List<Meter.Id> ids) {
    }

    PacketLogMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @EventListener
    void engineStarted(EngineLifecycle.Started started) {
        removeMeters(started.hostId());
        var log = started.engine().packetLog();
        var tags = Tags.of("host", started.hostName(), "host_id", started.hostId().toString());
        meters.put(started.hostId(), new Registered(log, List.of(
                counter("edp.packetlog.queued", "Packet-log lines the workers handed to the logger", tags, log,
                        PacketLogStats::queued),
                counter("edp.packetlog.suppressed", "Packet-log lines over a worker's rate limit", tags, log,
                        PacketLogStats::suppressed),
                counter("edp.packetlog.lost", "Packet-log lines lost to a full hand-off", tags, log,
                        PacketLogStats::lost),
                counter("edp.packetlog.written", "Packet-log lines delivered, once per output", tags, log,
                        PacketLogStats::written),
                counter("edp.packetlog.output.errors", "Packet-log lines an output refused", tags, log,
                        PacketLogStats::outputErrors))));
    }

    private Meter.Id counter(String name, String description, Tags tags, PacketLog log,
                             ToLongFunction<PacketLogStats> value) {
        return FunctionCounter.builder(name, log, l -> value.applyAsLong(l.stats()))
                .description(description).tags(tags).register(registry).getId();
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
