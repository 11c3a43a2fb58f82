package io.edp.manager.routing;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** A segment's gateway as clients create or replace it. */
@Schema(description = "The router's own addresses on one routed segment (VLAN): every host's engine answers ARP "
        + "and neighbor solicitations for them on that VLAN, answers ping to them, and sends ICMP time exceeded from "
        + "them. At least one of ipv4 and ipv6.")
public record GatewayRequest(
        @Schema(description = "The segment: the port-group VLAN of its VMs (0: untagged)", example = "10")
        @NotNull @Min(0) @Max(4094) Integer vlan,
        @Schema(description = "Unicast IPv4 address of the gateway, without prefix length", example = "10.0.0.254")
        @Size(max = 15) String ipv4,
        @Schema(description = "Unicast IPv6 address of the gateway, without prefix length", example = "fd00::fe")
        @Size(max = 45) String ipv6) {
}
