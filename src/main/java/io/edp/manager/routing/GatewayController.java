package io.edp.manager.routing;

import java.util.Set;

import io.edp.manager.api.IfMatch;
import io.edp.manager.api.PageParams;
import io.edp.manager.api.PageResponse;
import io.edp.manager.api.VersionedResponses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/routing/gateways", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Routing", description = "Routes of the distributed router, pushed to every host's engine")
class GatewayController {

    private final GatewayService gateways;

    GatewayController(GatewayService gateways) {
        this.gateways = gateways;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createGateway", summary = "Give the router an address on a segment",
            description = "Bumps every host's generation. 409 if the VLAN already has a gateway.")
    ResponseEntity<GatewayResponse> create(@Valid @RequestBody GatewayRequest request) {
        var gateway = gateways.create(request);
        return VersionedResponses.created(gateway.id(), gateway);
    }

    @GetMapping
    @Operation(operationId = "listGateways", summary = "List the segments' gateways",
            description = "Sortable by id (default) and vlan; `vlan` selects that segment's gateway.")
    PageResponse<GatewayResponse> list(@ParameterObject @Valid PageParams paging,
            @Parameter(description = "Exactly this VLAN's gateway", example = "10")
            @RequestParam(required = false) @Min(0) @Max(4094) Integer vlan) {
        return PageResponse.of(gateways.list(vlan, paging.toPageable(Set.of("id", "vlan"), "id")));
    }

    @GetMapping("/{gatewayId}")
    @Operation(operationId = "getGateway", summary = "Get a segment's gateway")
    ResponseEntity<GatewayResponse> get(@Parameter(description = "Id of the gateway") @PathVariable long gatewayId) {
        return VersionedResponses.ok(gateways.get(gatewayId));
    }

    @PutMapping(path = "/{gatewayId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "replaceGateway", summary = "Replace a segment's gateway",
            description = "Idempotent: an identical PUT keeps the ETag and bumps no generation.")
    ResponseEntity<GatewayResponse> replace(@Parameter(description = "Id of the gateway") @PathVariable long gatewayId,
                                            IfMatch ifMatch,
                                            @Valid @RequestBody GatewayRequest request) {
        return VersionedResponses.ok(gateways.replace(gatewayId, ifMatch, request));
    }

    @DeleteMapping("/{gatewayId}")
    @Operation(operationId = "deleteGateway", summary = "Delete a segment's gateway")
    ResponseEntity<Void> delete(@Parameter(description = "Id of the gateway") @PathVariable long gatewayId,
                                IfMatch ifMatch) {
        gateways.delete(gatewayId, ifMatch);
        return ResponseEntity.noContent().build();
    }
}
