package io.edp.manager.agent;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

import io.edp.agent.EngineJson;
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

/**
 * The engine of a host placed AGENT, as this manager knows it: the agent's last statistics snapshot (its takenAt
 * says when it was read; {@link #stale} when it is older than {@code edp.agent.stats-stale-after}) and the
 * configuration the agent is asked to run. Operations that must reach the running engine (flush, traffic, traces,
 * captures, connections, per-rule and top-flow counters) do not travel to agents yet: they answer 409 saying so.
 */
final class AgentEngine implements HostEngine {

    private final UUID hostId;
    private final AgentRepository.StoredStats snapshot;
    private final Supplier<Optional<EngineConfig>> config;
    private final Duration staleAfter;

    /** {@code config}: read when asked for, since most callers only want the statistics. */
    AgentEngine(UUID hostId, AgentRepository.StoredStats snapshot, Supplier<Optional<EngineConfig>> config,
                Duration staleAfter) {
        this.hostId = hostId;
        this.snapshot = snapshot;
        this.config = config;
        this.staleAfter = staleAfter;
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

    @Override
    public EngineConfig config() {
        return config.get().orElseThrow(() -> new ConflictException("Host " + hostId
                + " has no engine configuration to run (no NICs)"));
    }

    @Override
    public EngineStats stats() {
        return EngineJson.stats(EngineJson.MAPPER.readTree(snapshot.json()));
    }

    private ConflictException notForAgents(String operation) {
        return new ConflictException(operation + " is not yet supported for hosts placed AGENT (host " + hostId
                + "): the agent reports statistics snapshots, but commands do not travel to agents yet");
    }

    @Override
    public TopFlows topFlows() {
        throw notForAgents("Reading top flows");
    }

    @Override
    public List<RuleStats> ruleStats() {
        throw notForAgents("Reading per-rule counters");
    }

    @Override
    public ConnectionTableStats connectionStats() {
        throw notForAgents("Reading the connection table");
    }

    @Override
    public List<ConnectionEntry> listConnections(ConnectionFilter filter) {
        throw notForAgents("Listing connections");
    }

    @Override
    public int clearConnections(ConnectionFilter filter) {
        throw notForAgents("Clearing connections");
    }

    @Override
    public void flushFlowCaches() {
        throw notForAgents("Flushing the flow caches");
    }

    @Override
    public PacketTrace trace(int port, byte[] frame) {
        throw notForAgents("A packet trace");
    }

    @Override
    public IpfixStats ipfixStats() {
        throw notForAgents("Reading IPFIX counters");
    }

    @Override
    public PacketLogStats packetLogStats() {
        throw notForAgents("Reading packet-log counters");
    }

    @Override
    public CaptureStats startCapture(UUID captureId, CaptureSpec spec, Path file) {
        throw notForAgents("A packet capture");
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
        throw notForAgents("Generated traffic");
    }

    @Override
    public Optional<TrafficRun> traffic() {
        return Optional.empty();
    }

    @Override
    public Optional<TrafficRun> stopTraffic() {
        return Optional.empty();
    }

    @Override
    public long flowReceived(int flowId) {
        return 0;
    }
}
