package io.edp.manager.agent;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

import io.edp.agent.EngineJson;
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
 * The engine of a host placed AGENT, as this manager knows it: the agent's last statistics snapshot (its takenAt
 * says when it was read; {@link #stale} when it is older than {@code edp.agent.stats-stale-after}) and the
 * configuration the agent reported running ({@link #config}). Operations that must reach the running engine
 * (flush, traffic, traces, connections, per-rule, top-flow, IPFIX and packet-log counters) travel to the agent as
 * {@link EngineRequest}s ({@link EngineRequests}) and return what it answers. Captures are refused with 409: their pcap file would be
 * written on the agent's machine.
 */
final class AgentEngine implements HostEngine {

    private final UUID hostId;
    private final AgentRepository.StoredStats snapshot;
    private final Supplier<Optional<EngineConfig>> config;
    private final Duration staleAfter;
    private final EngineRequests requests;

    /**
     * {@code config}: the configuration the agent runs, empty while it has not reported running the host's current
     * generation; read when asked for, since most callers only want the statistics.
     */
    AgentEngine(UUID hostId, AgentRepository.StoredStats snapshot, Supplier<Optional<EngineConfig>> config,
                Duration staleAfter, EngineRequests requests) {
        this.hostId = hostId;
        this.snapshot = snapshot;
        this.config = config;
        this.staleAfter = staleAfter;
        this.requests = requests;
    }

    Instant takenAt() {
        return snapshot.takenAt();
    }

    /** Whether the snapshot is older than it should be if the agent were reporting. */
    boolean stale(Instant now) {
        return snapshot.takenAt().plus(staleAfter).isBefore(now);
    }

    long generation() {
        return snapshot.generation();
    }

    /**
     * What the agent runs: its host's configuration at the desired generation, once the agent reported running that
     * generation. Before (a change on its way, a failed apply), 409: the manager can build only the
     * current generation's configuration, not the older one the agent still runs.
     */
    @Override
    public EngineConfig config() {
        return config.get().orElseThrow(() -> new ConflictException("Host " + hostId + "'s agent has not "
                + "reported running the host's current generation (or the host has no NICs): the manager knows "
                + "only the current configuration, not an older one the agent may still run"));
    }

    @Override
    public EngineStats stats() {
        return EngineJson.stats(EngineJson.MAPPER.readTree(snapshot.json()));
    }

    /** Runs {@code request} on the agent's engine (see {@link EngineRequests}). */
    private <T> T call(EngineRequest request, TypeReference<T> type) {
        return requests.call(hostId, request, type);
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
        throw new ConflictException("Packet captures are not supported for hosts placed AGENT (host " + hostId
                + "): the pcap file would be written on the agent's machine, where the manager cannot serve it");
    }

    @Override
    public Optional<CaptureStats> capture(UUID captureId) {
        return Optional.empty(); // an agent's engine never started one
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
