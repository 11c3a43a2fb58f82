package io.edp.manager.traffic;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.engines.EngineLifecycle;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.engines.HostEngines;
import io.edp.manager.engines.TrafficRun;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

/**
 * Traffic runs on the loopback NICs of the hosts' engines, one per host at a time. Counters of a run are the
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

    /** A profile started on an engine: the engine counts it, the request is what the API shows beside. */
    private record Run(HostEngine engine, TrafficRequest request) {
    }

    synchronized TrafficStatus start(UUID hostId, TrafficRequest request) {
        var engine = engines.require(hostId);
        var started = engine.startTraffic(request.nic(), profile(request));
        runs.put(hostId, new Run(engine, request));
        return status(started, request);
    }

    /** A run ends with its engine (host deleted, engine rebuilt): forget it, and the engine's handle with it. */
    @EventListener
    void engineStopped(EngineLifecycle.Stopped stopped) {
        runs.computeIfPresent(stopped.hostId(), (id, run) -> run.engine() == stopped.engine() ? null : run);
    }

    TrafficStatus status(UUID hostId) {
        var run = run(hostId);
        return status(run.engine().traffic().orElseThrow(() -> notStarted(hostId)), run.request());
    }

    /** The host's run, if one was started on its current engine: what the statistics stream shows beside it. */
    public Optional<TrafficStatus> current(UUID hostId) {
        return Optional.ofNullable(runs.get(hostId))
                .flatMap(run -> run.engine().traffic().map(counters -> status(counters, run.request())));
    }

    TrafficStatus stop(UUID hostId) {
        var run = run(hostId);
        return status(run.engine().stopTraffic().orElseThrow(() -> notStarted(hostId)), run.request());
    }

    /** Frames of flow {@code flowId} that reached any sink of the host's engine since it started. */
    long flowReceived(UUID hostId, int flowId) {
        var engine = engines.require(hostId);
        // the engines' loopback ports keep the default per-flow bookkeeping of their sinks
        if (flowId < 0 || flowId >= LoopbackNic.DEFAULT_SINK_FLOWS) {
            throw new InvalidRequestException("flowId", "must be 0.." + (LoopbackNic.DEFAULT_SINK_FLOWS - 1));
        }
        return engine.flowReceived(flowId);
    }

    private Run run(UUID hostId) {
        var run = runs.get(hostId);
        if (run == null) {
            throw notStarted(hostId);
        }
        return run;
    }

    private static NotFoundException notStarted(UUID hostId) {
        return new NotFoundException("No traffic was started on host " + hostId);
    }

    private static TrafficStatus status(TrafficRun run, TrafficRequest request) {
        return new TrafficStatus(run.nic(), run.running(), run.startedAt(), run.takenAt(), run.sent(),
                run.received(), run.dropped(), run.lost(), run.reordered(), request);
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
