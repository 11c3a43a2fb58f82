package io.edp.manager.engines;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

import io.edp.manager.api.NotFoundException;

/**
 * The manager's side of the engines: where desired state is pushed, and how the hosts' engines are reached.
 * {@link EmbeddedEngines} runs them in this process and pushes to them; the engines of hosts placed AGENT run in
 * their agents, which pull their desired state, and {@link #engine} reaches them through {@link RemoteEngines}. It
 * never hands out an engine: {@link #engine} gives a {@link HostEngine}, which speaks in records.
 */
public interface HostEngines {

    /**
     * Makes the host's engine run {@code desired}. Idempotent: pushing what already runs changes nothing.
     *
     * @throws RuntimeException when the engine cannot take the configuration; the message says why
     */
    void push(HostDataPath desired);

    /** Stops and forgets the host's engine, if it has one. */
    void remove(UUID hostId);

    /**
     * The host's desired generation that its engine runs (the API's one generation number: a write's
     * {@code EDP-Generation}, realization's {@code realizedGeneration}); empty when it runs none.
     */
    OptionalLong generation(UUID hostId);

    /** Hosts that have an engine here. */
    Set<UUID> hosts();

    /**
     * Hosts whose engine {@link #engine} reaches, wherever it runs: here, in an agent that reported, or (from a
     * replica without engines) on the replica running the embedded engines.
     */
    Set<UUID> reachable();

    /** The host's running engine, if it has one: statistics, traffic, captures and traces go through it. */
    Optional<HostEngine> engine(UUID hostId);

    /** Why the host's engine does not run as pushed (a worker died or stalled), if it does not. */
    Optional<String> fault(UUID hostId);

    /** The host's running engine, or 404: statistics and traffic need one running. */
    default HostEngine require(UUID hostId) {
        return engine(hostId).orElseThrow(() -> new NotFoundException("Host " + hostId + " has no running engine "
                + "here (no such host, no NICs yet, or its first push has not happened; see its realization)"));
    }
}
