package io.edp.manager.packetlog;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** A syslog server as clients create or replace it. */
@Schema(description = "A syslog server every host's engine sends its firewall packet log to (RFC 5424), when the "
        + "host's dfwLogging is enabled")
public record SyslogServerRequest(
        @Schema(description = "Host name or IP address", example = "10.0.0.50") @NotBlank @Size(max = 253) String host,
        @Schema(description = "Port", defaultValue = "514", example = "514") @Min(1) @Max(65_535) Integer port,
        @Schema(description = "UDP (one message a datagram, RFC 5426) or TCP (octet counting, RFC 6587)",
                allowableValues = {"UDP", "TCP"}, example = "UDP") @NotNull @Size(max = 3) String transport) {
}
