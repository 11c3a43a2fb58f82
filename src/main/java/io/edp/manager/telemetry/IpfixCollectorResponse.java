package io.edp.manager.telemetry;

import io.edp.manager.api.Versioned;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "An IPFIX collector")
public record IpfixCollectorResponse(
        @Schema(description = "Id of the collector", example = "1") long id,
        @Schema(description = "IPv4 or IPv6 address, canonical form", example = "192.0.2.10") String address,
        @Schema(description = "UDP port", example = "4739") int port,
        @Schema(description = "Version of the resource, also sent as its ETag", example = "0") long version)
        implements Versioned {
}
