package io.edp.manager.telemetry;

import java.time.Instant;
import java.util.UUID;

import io.edp.manager.api.WithoutDatabase;
import io.edp.manager.packetlog.PacketLogReport;
import io.edp.manager.engines.HostEngines;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "Statistics")
@WithoutDatabase // reads the engines in memory: answers while the database is away
class TelemetryStatsController {

    private final HostEngines engines;

    TelemetryStatsController(HostEngines engines) {
        this.engines = engines;
    }

    @GetMapping(path = "/api/v1/hosts/{hostId}/stats/telemetry", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getTelemetryStats",
            summary = "Telemetry: IPFIX records, messages, templates, errors; packet-log lines",
            description = "Records and messages exported, templates sent, export errors, records lost because the "
                    + "exporter's queue was full, flows whose counters wait to be exported; the firewall packet log's "
                    + "lines queued, suppressed, lost and written, and its output errors. 404 while the host "
                    + "runs no engine.")
    TelemetryReport telemetry(@PathVariable UUID hostId) {
        var engine = engines.require(hostId);
        var now = Instant.now();
        return new TelemetryReport(now, TelemetryReport.Ipfix.of(engine.ipfixStats()),
                PacketLogReport.of(now, engine.packetLogStats()));
    }
}
