package io.edp.manager.packetlog;

import java.util.List;
import java.util.function.ToLongFunction;

import io.edp.engine.packetlog.PacketLog;
import io.edp.engine.packetlog.PacketLogStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * A host's packet-log counters as metrics ({@code edp_packetlog_*_total} in Prometheus), labelled by host; the
 * engine's meters register them with its others and remove them with them. The log's counters are a few sums: read
 * directly.
 */
public final class PacketLogMetrics {

    private PacketLogMetrics() {
    }

    /** Registers the meters of {@code log} (which must be held strongly elsewhere: Micrometer holds it weakly). */
    public static List<Meter.Id> register(MeterRegistry registry, Tags host, PacketLog log) {
        return List.of(
                counter(registry, "edp.packetlog.queued", "Packet-log lines the workers handed to the logger", host,
                        log, PacketLogStats::queued),
                counter(registry, "edp.packetlog.suppressed", "Packet-log lines over a worker's rate limit", host,
                        log, PacketLogStats::suppressed),
                counter(registry, "edp.packetlog.lost", "Packet-log lines lost to a full hand-off", host, log,
                        PacketLogStats::lost),
                counter(registry, "edp.packetlog.written", "Packet-log lines delivered, once per output", host, log,
                        PacketLogStats::written),
                counter(registry, "edp.packetlog.output.errors", "Packet-log lines an output refused", host, log,
                        PacketLogStats::outputErrors));
    }

    private static Meter.Id counter(MeterRegistry registry, String name, String description, Tags tags,
                                    PacketLog log, ToLongFunction<PacketLogStats> value) {
        return FunctionCounter.builder(name, log, l -> value.applyAsLong(l.stats()))
                .description(description).tags(tags).register(registry).getId();
    }
}
