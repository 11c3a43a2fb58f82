package io.edp.agent;

import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.databind.JsonNode;

/** The whole desired state of an agent's host: what the agent answers with an engine that runs exactly it. */
@Schema(description = "The whole desired state of the agent's host (level-triggered: never a diff)")
public record AgentDesiredState(
        @Schema(description = "Id of the host", example = "0b7e6f7a-3c55-4f0e-9f3e-52d9c1a4e2b1") UUID hostId,
        @Schema(description = "Name of the host", example = "esx-01") String hostName,
        @Schema(description = "The host's desired generation this state is; report it back with the realization",
                example = "7") long generation,
        @Schema(type = "object", description = "The engine configuration (the engine's EngineConfig record as JSON, "
                + "as the manager's own reconciler would push it); null when the host runs no engine (no NIC yet, "
                + "or it is placed EMBEDDED: the agent then stops its engine)")
        JsonNode engine,
        @Schema(description = "Operators' requests to the host's engine, each handed out once: run each and PUT its "
                + "answer to engine-requests/{id}. A long poll is answered at once when one is queued, with the "
                + "whole desired state as always") List<EngineRequest.Queued> requests) {

    public AgentDesiredState {
        requests = requests == null ? List.of() : List.copyOf(requests);
    }

    /** A desired state that carries no requests. */
    public AgentDesiredState(UUID hostId, String hostName, long generation, JsonNode engine) {
        this(hostId, hostName, generation, engine, List.of());
    }

    public AgentDesiredState withRequests(List<EngineRequest.Queued> queued) {
        return new AgentDesiredState(hostId, hostName, generation, engine, queued);
    }
}
