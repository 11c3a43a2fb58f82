package io.edp.manager.telemetry;

import java.time.Instant;
import java.util.UUID;

import io.edp.manager.api.WithoutDatabase;
import io.edp.manager.realization.HostEngines;
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
    @Operation(operationId = "getTelemetryStats", summary = "Telemetry: IPFIX records, messages, templates, errors",
            description = "Records and messages exported, templates sent, export errors, records lost because the "
                    + "exporter's queue was full, flows whose counters wait to be exported. 404 while the host "
                    + "runs no engine.")
    TelemetryReport telemetry(@PathVariable UUID hostId) {
        return new TelemetryReport(Instant.now(), TelemetryReport.Ipfix.of(engines.require(hostId).ipfixStats()));
    }
}
