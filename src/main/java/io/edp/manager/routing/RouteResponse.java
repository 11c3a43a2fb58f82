package io.edp.manager.routing;

import io.edp.manager.api.Versioned;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A route of the distributed router")
public record RouteResponse(
        @Schema(description = "Id of the route", example = "1") long id,
        @Schema(description = "Destination prefix, canonical form", example = "10.128.0.0/16") String prefix,
        @Schema(description = "MAC address of the next hop, lower case", example = "02:00:00:00:00:fe")
        String nextHopMac,
        @Schema(description = "Name of the physical NIC the routed frames leave by", example = "vmnic1") String output,
        @Schema(description = "VLAN the routed frames leave with; 0: untagged", example = "20") int vlan,
        @Schema(description = "Version of the resource, also sent as its ETag", example = "0") long version)
        implements Versioned {
}
