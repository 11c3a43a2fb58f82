package io.edp.manager.routing;

import io.edp.manager.api.Versioned;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "The router's own addresses on one routed segment (VLAN)")
public record GatewayResponse(
        @Schema(description = "Id of the gateway", example = "1") long id,
        @Schema(description = "The segment: the port-group VLAN of its VMs (0: untagged)", example = "10") int vlan,
        @Schema(description = "The gateway's IPv4 address; null: none", example = "10.0.0.254") String ipv4,
        @Schema(description = "The gateway's IPv6 address; null: none", example = "fd00::fe") String ipv6,
        @Schema(description = "Version of the resource, also sent as its ETag", example = "0") long version)
        implements Versioned {
}
