package io.edp.manager.packetlog;

import java.util.List;
import java.util.function.ToLongFunction;

import io.edp.engine.packetlog.PacketLogStats;
import io.edp.manager.engines.HostEngine;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * A host's packet-log counters as metrics ({@code edp_packetlog_*_total} in Prometheus), labelled by host; the
 * engine's meters register them with its others and remove them with them. The log's counters are a few sums: read
 * directly from the engine.
 */
public final class PacketLogMetrics {

    private PacketLogMetrics() {
    }

    /** Registers the meters of {@code engine} (which must be held strongly elsewhere: Micrometer holds it weakly). */
    public static List<Meter.Id> register(MeterRegistry registry, Tags host, HostEngine engine) {
        return List.of(
                counter(registry, "edp.packetlog.queued", "Packet-log lines the workers handed to the logger", host,
                        engine, PacketLogStats::queued),
                counter(registry, "edp.packetlog.suppressed", "Packet-log lines over a worker's rate limit", host,
                        engine, PacketLogStats::suppressed),
                counter(registry, "edp.packetlog.lost", "Packet-log lines lost to a full hand-off", host, engine,
                        PacketLogStats::lost),
                counter(registry, "edp.packetlog.written", "Packet-log lines delivered, once per output", host, engine,
                        PacketLogStats::written),
                counter(registry, "edp.packetlog.output.errors", "Packet-log lines an output refused", host, engine,
                        PacketLogStats::outputErrors));
    }

    private static Meter.Id counter(MeterRegistry registry, String name, String description, Tags tags,
                                    HostEngine engine, ToLongFunction<PacketLogStats> value) {
        return FunctionCounter.builder(name, engine, e -> value.applyAsLong(e.packetLogStats()))
                .description(description).tags(tags).register(registry).getId();
    }
}
