package io.edp.manager.agent;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

import io.edp.agent.EngineRequest;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.RuleStats;
import io.edp.engine.TopFlows;
import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.capture.CaptureStats;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.packetlog.PacketLogStats;
import io.edp.engine.slowpath.ConnectionEntry;
import io.edp.engine.slowpath.ConnectionFilter;
import io.edp.engine.slowpath.ConnectionTableStats;
import io.edp.engine.telemetry.IpfixStats;
import io.edp.engine.trace.PacketTrace;
import io.edp.manager.api.ConflictException;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.engines.TrafficRun;
import tools.jackson.core.type.TypeReference;

/**
 * A host's engine that runs in another process, reached by {@link EngineRequest}s ({@link EngineRequests}): every
 * operation travels to whoever runs the engine and returns what it answers. As such it is the engine of a host
 * placed EMBEDDED on a replica that runs no embedded engines (the replica that runs them answers); {@link
 * AgentEngine} reads statistics and configuration from the agent's reports instead, and runs captures in the agent.
 * Here captures are refused with 409: the embedded replica keeps its captures in memory and their files on its
 * machine, which this replica cannot serve.
 */
class RelayedEngine implements HostEngine {

    private final UUID hostId;
    private final EngineRequests requests;

    RelayedEngine(UUID hostId, EngineRequests requests) {
        this.hostId = hostId;
        this.requests = requests;
    }

    /** Runs {@code request} on the host's engine, wherever it runs. */
    <T> T call(EngineRequest request, TypeReference<T> type) {
        return requests.call(hostId, request, type);
    }

    @Override
    public OptionalLong generation() {
        Long generation = call(new EngineRequest.Generation(), new TypeReference<Long>() { });
        return generation == null ? OptionalLong.empty() : OptionalLong.of(generation);
    }

    @Override
    public EngineConfig config() {
        return call(new EngineRequest.Config(), new TypeReference<>() { });
    }

    @Override
    public EngineStats stats() {
        return call(new EngineRequest.Stats(), new TypeReference<>() { });
    }

    @Override
    public TopFlows topFlows() {
        return call(new EngineRequest.TopFlows(), new TypeReference<>() { });
    }

    @Override
    public List<RuleStats> ruleStats() {
        return call(new EngineRequest.RuleStats(), new TypeReference<>() { });
    }

    @Override
    public ConnectionTableStats connectionStats() {
        return call(new EngineRequest.ConnectionStats(), new TypeReference<>() { });
    }

    @Override
    public List<ConnectionEntry> listConnections(ConnectionFilter filter) {
        return call(new EngineRequest.ListConnections(filter), new TypeReference<>() { });
    }

    @Override
    public int clearConnections(ConnectionFilter filter) {
        return call(new EngineRequest.ClearConnections(filter), new TypeReference<Integer>() { });
    }

    @Override
    public void flushFlowCaches() {
        call(new EngineRequest.FlushFlowCaches(), new TypeReference<Void>() { });
    }

    @Override
    public PacketTrace trace(int port, byte[] frame) {
        return call(new EngineRequest.Trace(port, frame), new TypeReference<>() { });
    }

    @Override
    public IpfixStats ipfixStats() {
        return call(new EngineRequest.IpfixStats(), new TypeReference<>() { });
    }

    @Override
    public PacketLogStats packetLogStats() {
        return call(new EngineRequest.PacketLogStats(), new TypeReference<>() { });
    }

    @Override
    public CaptureStats startCapture(UUID captureId, CaptureSpec spec, Path file) {
        throw new ConflictException("Packet captures of host " + hostId + " start only on the replica running the "
                + "embedded engines (edp.engines.embedded): the pcap file is written on that replica's machine");
    }

    @Override
    public Optional<CaptureStats> capture(UUID captureId) {
        return Optional.empty(); // none was started through this handle
    }

    @Override
    public Optional<CaptureStats> stopCapture(UUID captureId) {
        return Optional.empty();
    }

    @Override
    public void forgetCapture(UUID captureId) {
        // nothing started, nothing to forget
    }

    @Override
    public TrafficRun startTraffic(String nic, TrafficProfile profile) {
        return call(new EngineRequest.StartTraffic(nic, profile), new TypeReference<>() { });
    }

    @Override
    public Optional<TrafficRun> traffic() {
        return Optional.ofNullable(call(new EngineRequest.Traffic(), new TypeReference<>() { }));
    }

    @Override
    public Optional<TrafficRun> stopTraffic() {
        return Optional.ofNullable(call(new EngineRequest.StopTraffic(), new TypeReference<>() { }));
    }

    @Override
    public long flowReceived(int flowId) {
        return call(new EngineRequest.FlowReceived(flowId), new TypeReference<Long>() { });
    }
}
