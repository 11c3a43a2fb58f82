package io.edp.manager.agent;

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
import io.edp.manager.api.ConflictException;

/**
 * The engine of a host placed AGENT, as this manager knows it: the agent's last statistics snapshot (its takenAt
 * says when it was read; {@link #stale} when it is older than {@code edp.agent.stats-stale-after}) and the
 * configuration the agent reported running ({@link #config}). Operations that must reach the running engine
 * (flush, traffic, traces, connections, per-rule, top-flow, IPFIX and packet-log counters) travel to the agent as
 * {@link EngineRequest}s, as a {@link RelayedEngine}'s do. Captures are refused with 409: their pcap file would be
 * written on the agent's machine.
 */
final class AgentEngine extends RelayedEngine {

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

    @Override
    String capturesRefused() {
        return "Packet captures are not supported for hosts placed AGENT (host " + hostId + "): the pcap file "
                + "would be written on the agent's machine, where the manager cannot serve it";
    }
}
