package io.edp.manager.edp;

import java.util.UUID;

import io.edp.manager.api.Versioned;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A host's EDP configuration, and what it amounts to")
public record HostEdpResponse(
        @Schema(description = "Id of the host", example = "0b7e6f7a-3c55-4f0e-9f3e-52d9c1a4e2b1") UUID hostId,
        @Schema(description = "The profile the host follows, if any", example = "edp-gold") String profile,
        @Schema(description = "The host's own settings (overrides)") EdpSettings settings,
        @Schema(description = "What the host runs: its settings over its profile's over the defaults; "
                + "workersPerNumaNode absent means one worker on each NUMA node with a physical NIC")
        EdpSettings effective,
        @Schema(description = "Version of the resource, also sent as its ETag", example = "0") long version)
        implements Versioned {
}
