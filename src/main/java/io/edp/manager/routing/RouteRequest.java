package io.edp.manager.routing;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** A route of the distributed router as clients create or replace it. */
@Schema(description = "A route: frames to the router MAC whose destination falls in the prefix leave on the output "
        + "physical NIC towards the next hop (longest prefix wins)")
public record RouteRequest(
        @Schema(description = "Destination prefix, IPv4 or IPv6", example = "10.128.0.0/16")
        @NotBlank @Size(max = 50) String prefix,
        @Schema(description = "MAC address of the next hop", example = "02:00:00:00:00:fe")
        @NotBlank @Size(max = 17) String nextHopMac,
        @Schema(description = "Name of the physical NIC the frames leave on; hosts without it skip the route",
                example = "vmnic1")
        @NotBlank @Size(max = 63) String output,
        @Schema(description = "VLAN to tag on the way out; 0: untagged", example = "20")
        @NotNull @Min(0) @Max(4094) Integer vlan) {
}
