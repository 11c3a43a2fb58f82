package io.edp.manager.telemetry;

import java.time.Instant;

import io.edp.engine.telemetry.IpfixStats;
import io.edp.manager.packetlog.PacketLogReport;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "Telemetry of a host's engine since it started")
record TelemetryReport(
        @Schema(description = "When the snapshot was taken") Instant takenAt,
        @Schema(description = "IPFIX flow export") Ipfix ipfix,
        @Schema(description = "Firewall packet logging (also served alone by /stats/packet-log)")
        PacketLogReport packetLog) {

    @Schema(description = "IPFIX flow export: what left for the collectors, and what did not")
    record Ipfix(
            @Schema(description = "Whether the engine exports (IPFIX on and at least one collector)") boolean enabled,
            @Schema(description = "Data records sent (once per message, whatever the number of collectors)")
            long recordsExported,
            @Schema(description = "Messages sent, counted once per collector") long messagesSent,
            @Schema(description = "Template records sent") long templatesSent,
            @Schema(description = "Sends that failed") long exportErrors,
            @Schema(description = "Records the workers could not hand to the exporter (its queue was full): lost "
                    + "from the export") long recordsDropped,
            @Schema(description = "Flows whose counters wait to be exported") long flowsActive) {

        static Ipfix of(IpfixStats s) {
            return new Ipfix(s.enabled(), s.recordsExported(), s.messagesSent(), s.templatesSent(), s.exportErrors(),
                    s.recordsDropped(), s.flowsActive());
        }
    }
}
