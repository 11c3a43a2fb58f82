package io.edp.manager.traffic;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.engines.HostEngines;
import io.edp.manager.engines.TrafficRun;
import org.springframework.stereotype.Service;

/**
 * Traffic runs on the loopback NICs of the hosts' engines, one per host at a time. Counters of a run are the
 * engine's and the sinks' since the run started. A run belongs to the engine it started on, which keeps it with its
 * profile: any replica reads or stops it through the host's engine, and when the engine stops (host deleted, or
 * rebuilt because its workers changed), the run ends and is forgotten with it.
 */
@Service
public class TrafficService {

    private static final String SOURCE_MAC = "02:00:00:00:00:aa";

    private final HostEngines engines;

    TrafficService(HostEngines engines) {
        this.engines = engines;
    }

    TrafficStatus start(UUID hostId, TrafficRequest request) {
        return status(engines.require(hostId).startTraffic(request.nic(), profile(request)));
    }

    TrafficStatus status(UUID hostId) {
        return status(engines.require(hostId).traffic().orElseThrow(() -> notStarted(hostId)));
    }

    /** The run last started on {@code engine}, if any: what the statistics stream shows beside it. */
    public Optional<TrafficStatus> current(HostEngine engine) {
        return engine.traffic().map(TrafficService::status);
    }

    TrafficStatus stop(UUID hostId) {
        return status(engines.require(hostId).stopTraffic().orElseThrow(() -> notStarted(hostId)));
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

    private static NotFoundException notStarted(UUID hostId) {
        return new NotFoundException("No traffic was started on host " + hostId);
    }

    private static TrafficStatus status(TrafficRun run) {
        return new TrafficStatus(run.nic(), run.running(), run.startedAt(), run.takenAt(), run.sent(),
                run.received(), run.dropped(), run.lost(), run.reordered(), request(run.nic(), run.profile()));
    }

    /** The request of {@link #profile} back, every default filled in. */
    private static TrafficRequest request(String nic, TrafficProfile p) {
        return new TrafficRequest(nic, p.flows(), p.frameBytes(), p.packetsPerSecond(), p.udpPercent(),
                p.tcpPercent(), p.ipv6Percent(), p.packets(),
                p.duration() == null ? null : Math.toIntExact(p.duration().toSeconds()), p.destinationMac(), p.vlan(),
                p.sourceBase(), p.destinationBase(), p.destinations());
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
