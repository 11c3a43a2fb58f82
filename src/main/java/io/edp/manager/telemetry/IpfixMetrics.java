package io.edp.manager.telemetry;

import java.util.List;
import java.util.function.ToLongFunction;

import io.edp.engine.telemetry.IpfixStats;
import io.edp.manager.engines.HostEngine;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * A host's IPFIX counters as metrics ({@code edp_ipfix_*} in Prometheus), labelled by host; the engine's meters
 * register them with its others and remove them with them.
 */
public final class IpfixMetrics {

    private IpfixMetrics() {
    }

    /** Registers the meters of {@code engine} (which must be held strongly elsewhere: Micrometer holds it weakly). */
    public static List<Meter.Id> register(MeterRegistry registry, Tags host, HostEngine engine) {
        return List.of(
                counter(registry, "edp.ipfix.records", "IPFIX data records exported", host, engine,
                        IpfixStats::recordsExported),
                counter(registry, "edp.ipfix.messages", "IPFIX messages sent, once per collector", host, engine,
                        IpfixStats::messagesSent),
                counter(registry, "edp.ipfix.templates", "IPFIX template records sent", host, engine,
                        IpfixStats::templatesSent),
                counter(registry, "edp.ipfix.errors", "IPFIX sends that failed", host, engine,
                        IpfixStats::exportErrors),
                counter(registry, "edp.ipfix.records.dropped", "Flow records lost: the exporter's queue was full",
                        host, engine, IpfixStats::recordsDropped),
                Gauge.builder("edp.ipfix.flows.active", engine, e -> e.ipfixStats().flowsActive())
                        .description("Flows whose counters wait to be exported").tags(host).register(registry)
                        .getId());
    }

    private static Meter.Id counter(MeterRegistry registry, String name, String description, Tags tags,
                                    HostEngine engine, ToLongFunction<IpfixStats> value) {
        return FunctionCounter.builder(name, engine, e -> value.applyAsLong(e.ipfixStats()))
                .description(description).tags(tags).register(registry).getId();
    }
}
