package io.edp.manager.packetlog;

import java.time.Instant;
import java.util.UUID;

import io.edp.manager.api.WithoutDatabase;
import io.edp.manager.engines.HostEngines;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/hosts/{hostId}/stats", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Statistics")
@WithoutDatabase // reads the engine in memory: answers while the database is away
class PacketLogStatsController {

    private final HostEngines engines;

    PacketLogStatsController(HostEngines engines) {
        this.engines = engines;
    }

    @GetMapping("/packet-log")
    @Operation(operationId = "getPacketLogStats", summary = "Firewall packet log: lines queued, suppressed, lost, "
            + "written, output errors", description = "404 while the host runs no engine.")
    PacketLogReport packetLog(@PathVariable UUID hostId) {
        return PacketLogReport.of(Instant.now(), engines.require(hostId).packetLogStats());
    }
}
