package io.edp.manager.host;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.edp.manager.api.Versioned;
import io.swagger.v3.oas.annotations.media.Schema;

/** A host as the API shows it. */
@Schema(description = "A host of the inventory")
public record HostResponse(
        @Schema(description = "Id of the host", example = "0b7e6f7a-3c55-4f0e-9f3e-52d9c1a4e2b1") UUID id,
        @Schema(description = "Unique name of the host", example = "esx-01") String name,
        @Schema(description = "Address the manager uses to reach the host", example = "192.0.2.11")
        String managementAddress,
        @Schema(description = "Where the host's engine runs: EMBEDDED in the manager, AGENT on the host",
                example = "EMBEDDED") Placement placement,
        @Schema(description = "Connectivity of the host's agent; null for an EMBEDDED host without an agent "
                + "token") AgentStatus agent,
        @Schema(description = "NUMA nodes with their CPU cores, by node id") List<NumaNode> numaNodes,
        @Schema(description = "Labels", example = "{\"rack\": \"r12\"}") Map<String, String> labels,
        @Schema(description = "Version of the resource, also sent as its ETag; 0 when created", example = "0")
        long version)
        implements Versioned {

    static HostResponse of(Host host, AgentStatus agent) {
        return new HostResponse(host.id(), host.name(), host.managementAddress(), host.placement(), null,
                host.numaNodes(), host.labels(), host.version()).withAgent(agent);
    }

    /**
     * This host with its agent's status, shown for an AGENT host or one that has a token; this very host when it
     * shows none and had none.
     */
    HostResponse withAgent(AgentStatus status) {
        boolean shown = placement == Placement.AGENT || status.tokenIssued();
        if (!shown && agent == null) {
            return this;
        }
        return new HostResponse(id, name, managementAddress, placement, shown ? status : null, numaNodes, labels,
                version);
    }
}
