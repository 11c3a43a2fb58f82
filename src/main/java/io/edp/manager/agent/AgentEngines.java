package io.edp.manager.agent;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

import io.edp.manager.engines.EngineProperties;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.engines.RemoteEngines;
import io.edp.manager.host.Placement;
import io.edp.manager.realization.AgentRealization;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.server.ResponseStatusException;

/**
 * The engines of hosts placed AGENT, as their agents last reported them ({@link AgentEngine}), and, on a replica
 * that runs no embedded engines, those of hosts placed EMBEDDED, reached through the replica that runs them
 * ({@link RelayedEngine}). Asked only for hosts without an engine in this process; while the database is away none
 * is found, as before there were agents, so the statistics endpoints answer 404 rather than fail.
 */
@Component
class AgentEngines implements RemoteEngines {

    private final AgentRepository agents;
    private final AgentRealization realization;
    private final AgentProperties properties;
    private final EngineRequests requests;
    /** Whether this replica runs the embedded engines: if not, it relays to the one that does. */
    private final boolean embeddedHere;

    AgentEngines(AgentRepository agents, AgentRealization realization, AgentProperties properties,
                 EngineRequests requests, EngineProperties engines) {
        this.agents = agents;
        this.realization = realization;
        this.properties = properties;
        this.requests = requests;
        this.embeddedHere = engines.embedded();
    }

    /**
     * Within an HTTP request an agent host's engine is read once and kept in the request: a statistics GET reads it
     * for its freshness headers ({@link AgentStatsFreshness}) and again to answer, and each read fetched the whole
     * snapshot.
     */
    @Override
    public Optional<HostEngine> engine(UUID hostId) {
        var request = RequestContextHolder.getRequestAttributes();
        var kept = AgentEngine.class.getName() + "." + hostId;
        if (request != null
                && request.getAttribute(kept, RequestAttributes.SCOPE_REQUEST) instanceof AgentEngine agent) {
            return Optional.of(agent);
        }
        var agent = snapshot(hostId).map(snapshot -> new AgentEngine(hostId, snapshot,
                () -> realization.realizedByAgent(hostId), properties.statsStaleAfter(), requests));
        if (agent.isEmpty()) {
            return relayed(hostId);
        }
        if (request != null) {
            request.setAttribute(kept, agent.get(), RequestAttributes.SCOPE_REQUEST);
        }
        return Optional.of(agent.get());
    }

    @Override
    public Set<UUID> hosts() {
        try {
            return agents.remoteEngineHosts(!embeddedHere);
        } catch (DataAccessException e) {
            return Set.of();
        }
    }

    @Override
    public OptionalLong generation(UUID hostId) {
        return engine(hostId).map(HostEngine::generation).orElse(OptionalLong.empty());
    }

    /**
     * The engine of a host placed EMBEDDED when another replica runs it; 503 for a host placed AGENT whose agent has
     * not reported yet (its engine exists only once the agent said so).
     */
    private Optional<HostEngine> relayed(UUID hostId) {
        Optional<Placement> placement;
        try {
            placement = agents.placement(hostId);
        } catch (DataAccessException e) {
            return Optional.empty();
        }
        if (placement.orElse(null) == Placement.AGENT) {
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "Host " + hostId + " is placed AGENT "
                    + "and its agent has not reported its engine yet (never connected with its token, or its engine "
                    + "has not started); retry once the agent reports");
        }
        return placement.orElse(null) == Placement.EMBEDDED && !embeddedHere
                ? Optional.of(new RelayedEngine(hostId, requests)) : Optional.empty();
    }

    private Optional<AgentRepository.StoredStats> snapshot(UUID hostId) {
        try {
            return agents.stats(hostId);
        } catch (DataAccessException e) {
            return Optional.empty();
        }
    }
}
