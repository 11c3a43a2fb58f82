package io.edp.manager.telemetry;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** An IPFIX collector as clients create or replace it. */
@Schema(description = "An IPFIX collector: every host whose EDP settings switch IPFIX on exports its flows to it "
        + "over UDP")
public record IpfixCollectorRequest(
        @Schema(description = "IPv4 or IPv6 address of the collector", example = "192.0.2.10")
        @NotBlank @Size(max = 45) String address,
        @Schema(description = "UDP port the collector listens on", example = "4739")
        @NotNull @Min(1) @Max(65_535) Integer port) {
}
