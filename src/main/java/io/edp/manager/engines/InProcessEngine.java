package io.edp.manager.engines;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.RuleStats;
import io.edp.engine.TopFlows;
import io.edp.engine.capture.CaptureSession;
import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.capture.CaptureStats;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.nic.loopback.TrafficSink;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packetlog.PacketLogStats;
import io.edp.engine.slowpath.ConnectionEntry;
import io.edp.engine.slowpath.ConnectionFilter;
import io.edp.engine.slowpath.ConnectionTableStats;
import io.edp.engine.telemetry.IpfixStats;
import io.edp.engine.trace.PacketTrace;
import io.edp.manager.api.ConflictException;
import io.edp.manager.api.InvalidRequestException;

/**
 * A {@link HostEngine} over an engine running in this process: reads and commands go straight to it, and the
 * captures and the traffic run it started are kept here, with it. Public so that a process running an engine for
 * an agent answers the same operations the same way.
 */
public final class InProcessEngine implements HostEngine {

    private final Engine engine;
    private final Map<UUID, CaptureSession> captures = new ConcurrentHashMap<>();
    private Run run; // guarded by this
    private volatile OptionalLong generation = OptionalLong.empty();

    /** A started profile and the counters it started from. */
    private record Run(String nic, TrafficProfile profile, TrafficGenerator generator, Instant startedAt,
                       Totals before) {
    }

    private record Totals(long received, long lost, long reordered, Map<DropReason, Long> dropped) {
    }

    public InProcessEngine(Engine engine) {
        this.engine = engine;
    }

    /** The engine itself, for its owner (start, apply, stop, health). */
    Engine engine() {
        return engine;
    }

    /** The engine runs the host's desired generation {@code generation} (said by its owner after each push). */
    void runs(long generation) {
        this.generation = OptionalLong.of(generation);
    }

    @Override
    public OptionalLong generation() {
        return generation;
    }

    @Override
    public EngineConfig config() {
        return engine.config();
    }

    @Override
    public EngineStats stats() {
        return engine.stats();
    }

    @Override
    public TopFlows topFlows() {
        return engine.topFlows();
    }

    @Override
    public List<RuleStats> ruleStats() {
        return engine.ruleStats();
    }

    @Override
    public ConnectionTableStats connectionStats() {
        return engine.connectionStats();
    }

    @Override
    public List<ConnectionEntry> listConnections(ConnectionFilter filter) {
        return engine.listConnections(filter);
    }

    @Override
    public int clearConnections(ConnectionFilter filter) {
        return engine.clearConnections(filter);
    }

    @Override
    public void flushFlowCaches() {
        engine.flushFlowCaches();
    }

    @Override
    public PacketTrace trace(int port, byte[] frame) {
        try {
            return engine.trace(port, frame);
        } catch (IllegalArgumentException e) { // the port went away with a configuration pushed meanwhile
            throw new InvalidRequestException("ingress", e.getMessage());
        }
    }

    @Override
    public IpfixStats ipfixStats() {
        return engine.ipfixStats();
    }

    @Override
    public PacketLogStats packetLogStats() {
        return engine.packetLog().stats();
    }

    @Override
    public CaptureStats startCapture(UUID captureId, CaptureSpec spec, Path file) {
        CaptureSession session;
        try {
            session = engine.capture(spec, file);
        } catch (IllegalArgumentException e) { // the port went away with a push meanwhile
            throw new InvalidRequestException("port", e.getMessage());
        }
        captures.put(captureId, session);
        return session.stats();
    }

    @Override
    public Optional<CaptureStats> capture(UUID captureId) {
        return Optional.ofNullable(captures.get(captureId)).map(CaptureSession::stats);
    }

    @Override
    public Optional<CaptureStats> stopCapture(UUID captureId) {
        var session = captures.get(captureId);
        if (session == null) {
            return Optional.empty();
        }
        session.stop();
        return Optional.of(session.stats());
    }

    @Override
    public void forgetCapture(UUID captureId) {
        var session = captures.remove(captureId);
        if (session != null) {
            session.stop(); // ended already unless its engine went away with it running
        }
    }

    @Override
    public synchronized TrafficRun startTraffic(String nic, TrafficProfile profile) {
        if (run != null && !run.generator().finished()) {
            throw new ConflictException("Traffic is already running on this engine; stop it first");
        }
        var loopback = loopbackNic(nic);
        var before = totals();
        TrafficGenerator generator;
        try {
            generator = loopback.startTraffic(profile);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("profile", e.getMessage());
        }
        run = new Run(nic, profile, generator, Instant.now(), before);
        return counters(run);
    }

    @Override
    public synchronized Optional<TrafficRun> traffic() {
        return Optional.ofNullable(run).map(this::counters);
    }

    @Override
    public synchronized Optional<TrafficRun> stopTraffic() {
        if (run == null) {
            return Optional.empty();
        }
        run.generator().stop();
        return Optional.of(counters(run));
    }

    @Override
    public long flowReceived(int flowId) {
        long received = 0;
        for (var sink : sinks()) {
            received += sink.flowPackets(flowId);
        }
        return received;
    }

    private TrafficRun counters(Run run) {
        var now = totals();
        var dropped = new TreeMap<String, Long>();
        now.dropped().forEach((reason, count) -> {
            long since = count - run.before().dropped().getOrDefault(reason, 0L);
            if (since != 0) {
                dropped.put(reason.name(), since);
            }
        });
        return new TrafficRun(run.nic(), !run.generator().finished(), run.startedAt(), Instant.now(),
                run.generator().sent(), now.received() - run.before().received(), dropped,
                now.lost() - run.before().lost(), now.reordered() - run.before().reordered(), run.profile());
    }

    private Totals totals() {
        long received = 0;
        long lost = 0;
        long reordered = 0;
        for (var sink : sinks()) {
            received += sink.packets();
            lost += sink.lost();
            reordered += sink.reordered();
        }
        return new Totals(received, lost, reordered, engine.stats().drops());
    }

    /** The engine port of physical NIC {@code name}, if it is a loopback NIC (VM ports do not take traffic). */
    private LoopbackNic loopbackNic(String name) {
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

    private List<TrafficSink> sinks() {
        var sinks = new ArrayList<TrafficSink>();
        for (var port : engine.config().ports()) {
            if (engine.driver(port.id()) instanceof LoopbackNic nic) {
                sinks.add(nic.sink());
            }
        }
        return sinks;
    }
}
