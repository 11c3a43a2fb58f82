package io.edp.manager.traffic;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.edp.engine.Engine;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.nic.loopback.TrafficSink;
import io.edp.engine.packet.DropReason;
import io.edp.manager.api.ConflictException;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.realization.EngineLifecycle;
import io.edp.manager.realization.HostEngines;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

/**
 * Traffic runs on the loopback NICs of the embedded engines, one per host at a time. Counters of a run are the
 * engine's and the sinks' since the run started. A run belongs to the engine it started on: when the host's engine
 * stops (host deleted, or rebuilt because its workers changed), the run ends and is forgotten.
 */
@Service
public class TrafficService {

    private static final String SOURCE_MAC = "02:00:00:00:00:aa";

    private final HostEngines engines;
    private final Map<UUID, Run> runs = new ConcurrentHashMap<>();

    TrafficService(HostEngines engines) {
        this.engines = engines;
    }

    /** A started profile and the counters it started from. */
    private record Run(Engine engine, TrafficRequest request, TrafficGenerator generator, Instant startedAt,
                       Totals before) {
    }

    private record Totals(long received, long lost, long reordered, Map<DropReason, Long> dropped) {

        static Totals of(Engine engine) {
            long received = 0;
            long lost = 0;
            long reordered = 0;
            for (var sink : sinks(engine)) {
                received += sink.packets();
                lost += sink.lost();
                reordered += sink.reordered();
            }
            return new Totals(received, lost, reordered, engine.stats().drops());
        }
    }

    synchronized TrafficStatus start(UUID hostId, TrafficRequest request) {
        var engine = engines.require(hostId);
        var current = runs.get(hostId);
        if (current != null && current.engine() == engine && !current.generator().finished()) {
            throw new ConflictException("Traffic is already running on host " + hostId + "; stop it first");
        }
        var nic = loopbackNic(engine, request.nic());
        var before = Totals.of(engine);
        TrafficGenerator generator;
        try {
            generator = nic.startTraffic(profile(request));
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("profile", e.getMessage());
        }
        var run = new Run(engine, request, generator, Instant.now(), before);
        runs.put(hostId, run);
        return status(run);
    }

    /** A run ends with its engine (host deleted, engine rebuilt): forget it, and the engine's memory with it. */
    @EventListener
    void engineStopped(EngineLifecycle.Stopped stopped) {
        runs.computeIfPresent(stopped.hostId(), (id, run) -> run.engine() == stopped.engine() ? null : run);
    }

    TrafficStatus status(UUID hostId) {
        return status(run(hostId));
    }

    /** The host's run, if one was started on its current engine: what the statistics stream shows beside it. */
    public Optional<TrafficStatus> current(UUID hostId) {
        return Optional.ofNullable(runs.get(hostId)).map(TrafficService::status);
    }

    TrafficStatus stop(UUID hostId) {
        var run = run(hostId);
        run.generator().stop();
        return status(run);
    }

    /** Frames of flow {@code flowId} that reached any sink of the host's engine since it started. */
    long flowReceived(UUID hostId, int flowId) {
        var engine = engines.require(hostId);
        // the embedded engines' loopback ports keep the default per-flow bookkeeping of their sinks
        if (flowId < 0 || flowId >= LoopbackNic.DEFAULT_SINK_FLOWS) {
            throw new InvalidRequestException("flowId", "must be 0.." + (LoopbackNic.DEFAULT_SINK_FLOWS - 1));
        }
        long received = 0;
        for (var sink : sinks(engine)) {
            received += sink.flowPackets(flowId);
        }
        return received;
    }

    private Run run(UUID hostId) {
        var run = runs.get(hostId);
        if (run == null) {
            throw new NotFoundException("No traffic was started on host " + hostId);
        }
        return run;
    }

    private static TrafficStatus status(Run run) {
        var now = Totals.of(run.engine());
        var dropped = new TreeMap<String, Long>();
        now.dropped().forEach((reason, count) -> {
            long since = count - run.before().dropped().getOrDefault(reason, 0L);
            if (since != 0) {
                dropped.put(reason.name(), since);
            }
        });
        return new TrafficStatus(run.request().nic(), !run.generator().finished(), run.startedAt(), Instant.now(),
                run.generator().sent(), now.received() - run.before().received(), dropped,
                now.lost() - run.before().lost(), now.reordered() - run.before().reordered(), run.request());
    }

    /** The engine port of physical NIC {@code name}, if it is a loopback NIC (VM ports do not take traffic). */
    private static LoopbackNic loopbackNic(Engine engine, String name) {
        var config = engine.config();
        for (PortConfig port : config.ports()) {
            boolean vmPort = config.vnics().stream().anyMatch(vnic -> vnic.port() == port.id());
            if (port.name().equals(name) && !vmPort) {
                if (engine.driver(port.id()) instanceof LoopbackNic nic) {
                    return nic;
                }
                throw new InvalidRequestException("nic", "physical NIC '" + name + "' has driver " + port.driver()
                        + "; traffic profiles need a loopback NIC");
            }
        }
        throw new InvalidRequestException("nic", "the host's engine has no physical NIC named '" + name + "'");
    }

    private static Iterable<TrafficSink> sinks(Engine engine) {
        var sinks = new ArrayList<TrafficSink>();
        for (var port : engine.config().ports()) {
            if (engine.driver(port.id()) instanceof LoopbackNic nic) {
                sinks.add(nic.sink());
            }
        }
        return sinks;
    }

    private static TrafficProfile profile(TrafficRequest r) {
        return new TrafficProfile(r.flows(), or(r.frameBytes(), 64), or(r.packetsPerSecond(), 0L),
                or(r.udpPercent(), 100), or(r.tcpPercent(), 0), or(r.ipv6Percent(), 0), or(r.packets(), 0L),
                r.durationSeconds() == null ? null : Duration.ofSeconds(r.durationSeconds()), SOURCE_MAC,
                r.destinationMac(), or(r.vlan(), 0), r.sourceBase() == null ? "10.0.0.0" : r.sourceBase(),
                r.destinationBase() == null ? "10.128.0.0" : r.destinationBase(), or(r.destinations(), 1), 0, 0);
    }

    private static <T> T or(T value, T fallback) {
        return value == null ? fallback : value;
    }
}
