package io.edp.manager.traffic;

import java.util.UUID;

import io.edp.manager.api.WithoutDatabase;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

@RestController
@RequestMapping(path = "/api/v1/hosts/{hostId}/traffic", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Traffic", description = "Traffic profiles on the loopback NICs of a host's embedded engine")
@WithoutDatabase // reads the engines in memory: answers while the database is away
class TrafficController {

    private final TrafficService traffic;

    TrafficController(TrafficService traffic) {
        this.traffic = traffic;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "startTraffic", summary = "Start a traffic profile",
            description = "409 while another run is going on the host.")
    ResponseEntity<TrafficStatus> start(@PathVariable UUID hostId, @Valid @RequestBody TrafficRequest request) {
        var status = traffic.start(hostId, request);
        return ResponseEntity.created(ServletUriComponentsBuilder.fromCurrentRequestUri().build().toUri())
                .body(status);
    }

    @GetMapping
    @Operation(operationId = "getTraffic", summary = "Inspect the traffic run",
            description = "Sent, received at the sinks, dropped by reason, lost and reordered, since it started.")
    TrafficStatus status(@PathVariable UUID hostId) {
        return traffic.status(hostId);
    }

    @DeleteMapping
    @Operation(operationId = "stopTraffic", summary = "Stop the traffic run",
            description = "Answers its final counters.")
    TrafficStatus stop(@PathVariable UUID hostId) {
        return traffic.stop(hostId);
    }

    @GetMapping("/flows/{flowId}")
    @Operation(operationId = "getTrafficFlow", summary = "Frames of one flow that reached a sink",
            description = "Flow ids count from 0 in the profile's order; since the engine started.")
    FlowReceived flow(@PathVariable UUID hostId,
            @Parameter(description = "Number of the flow in the profile, from 0", example = "0")
            @PathVariable int flowId) {
        return new FlowReceived(flowId, traffic.flowReceived(hostId, flowId));
    }

    @Schema(description = "What the sinks received of one flow")
    record FlowReceived(
            @Schema(description = "Number of the flow in the profile, from 0", example = "0") int flowId,
            @Schema(description = "Its frames that reached a sink", example = "100") long received) {
    }
}
