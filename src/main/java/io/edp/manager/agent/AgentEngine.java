package io.edp.manager.agent;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Supplier;

import io.edp.agent.EngineJson;
import io.edp.agent.EngineRequest;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.capture.CaptureStats;
import io.edp.manager.api.ConflictException;
import io.edp.manager.engines.CaptureUploader;
import tools.jackson.core.type.TypeReference;

/**
 * The engine of a host placed AGENT, as this manager knows it: the agent's last statistics snapshot (its takenAt
 * says when it was read; {@link #stale} when it is older than {@code edp.agent.stats-stale-after}) and the
 * configuration the agent reported running ({@link #config}). Operations that must reach the running engine
 * (flush, traffic, traces, connections, per-rule, top-flow, IPFIX and packet-log counters) travel to the agent as
 * {@link EngineRequest}s, as a {@link RelayedEngine}'s do; so do captures, which the agent runs with their files in
 * its own capture directory and uploads ({@link CaptureUploader}).
 */
final class AgentEngine extends RelayedEngine implements CaptureUploader {

    private final UUID hostId;
    private final AgentRepository.StoredStats snapshot;
    private final Supplier<Optional<EngineConfig>> config;
    private final Duration staleAfter;

    /**
     * {@code config}: the configuration the agent runs, empty while it has not reported running the host's current
     * generation; read when asked for, since most callers only want the statistics.
     */
    AgentEngine(UUID hostId, AgentRepository.StoredStats snapshot, Supplier<Optional<EngineConfig>> config,
                Duration staleAfter, EngineRequests requests) {
        super(hostId, requests);
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

    /** The generation the agent's engine ran at its last snapshot. */
    @Override
    public OptionalLong generation() {
        return OptionalLong.of(snapshot.generation());
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

    /** {@code file} is not used: the agent writes the file in its own capture directory. */
    @Override
    public CaptureStats startCapture(UUID captureId, CaptureSpec spec, Path file) {
        return call(new EngineRequest.StartCapture(captureId, spec), new TypeReference<>() { });
    }

    @Override
    public Optional<CaptureStats> capture(UUID captureId) {
        return Optional.ofNullable(call(new EngineRequest.Capture(captureId), new TypeReference<>() { }));
    }

    @Override
    public Optional<CaptureStats> stopCapture(UUID captureId) {
        return Optional.ofNullable(call(new EngineRequest.StopCapture(captureId), new TypeReference<>() { }));
    }

    @Override
    public void forgetCapture(UUID captureId) {
        call(new EngineRequest.RemoveCapture(captureId), new TypeReference<Void>() { });
    }

    @Override
    public Optional<CaptureStats> uploadCapture(UUID captureId) {
        return Optional.ofNullable(call(new EngineRequest.CaptureFile(captureId), new TypeReference<>() { }));
    }
}
