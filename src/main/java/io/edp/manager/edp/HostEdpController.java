package io.edp.manager.edp;

import java.util.UUID;

import io.edp.manager.api.IfMatch;
import io.edp.manager.api.VersionedResponses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/hosts/{hostId}/edp", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "EDP configuration", description = "Desired data-path configuration of a host, and shared profiles")
class HostEdpController {

    private final HostEdpService edp;

    HostEdpController(HostEdpService edp) {
        this.edp = edp;
    }

    @GetMapping
    @Operation(operationId = "getHostEdp", summary = "Get a host's EDP configuration",
            description = "Every host has one from its creation: no profile, no overrides, the defaults in effect.")
    ResponseEntity<HostEdpResponse> get(@PathVariable UUID hostId) {
        return VersionedResponses.ok(edp.get(hostId));
    }

    @PutMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "replaceHostEdp", summary = "Set a host's EDP configuration",
            description = "Idempotent: sending what is already there answers 200 with the same ETag and does not "
                    + "bump the host's generation. A change bumps it; watch /realization for the push.")
    ResponseEntity<HostEdpResponse> replace(@PathVariable UUID hostId, IfMatch ifMatch,
                                            @Valid @RequestBody HostEdpRequest request) {
        return VersionedResponses.ok(edp.replace(hostId, ifMatch, request));
    }
}
