package io.edp.manager.routing;

import io.edp.manager.api.Versioned;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A route of the distributed router")
public record RouteResponse(
        @Schema(description = "Id of the route", example = "1") long id,
        @Schema(example = "10.128.0.0/16") String prefix,
        @Schema(example = "02:00:00:00:00:fe") String nextHopMac,
        @Schema(example = "vmnic1") String output,
        @Schema(example = "20") int vlan,
        @Schema(description = "Version of the resource, also sent as its ETag", example = "0") long version)
        implements Versioned {
}
