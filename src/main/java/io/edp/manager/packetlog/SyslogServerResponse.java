package io.edp.manager.packetlog;

import io.edp.engine.packetlog.PacketLogConfig;
import io.edp.manager.api.Versioned;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A syslog server of the firewall packet log")
public record SyslogServerResponse(
        @Schema(description = "Id of the server", example = "1") long id,
        @Schema(description = "Host name or IP address", example = "10.0.0.50") String host,
        @Schema(description = "Port", example = "514") int port,
        @Schema(description = "UDP (RFC 5426) or TCP (octet counting, RFC 6587)", example = "UDP")
        PacketLogConfig.Transport transport,
        @Schema(description = "Version of the resource, also sent as its ETag", example = "0") long version)
        implements Versioned {

    /** The server as an engine sends to it. */
    public PacketLogConfig.SyslogServer engineServer() {
        return new PacketLogConfig.SyslogServer(host, port, transport);
    }
}
