package io.edp.manager.routing;

import java.util.Set;

import io.edp.manager.api.GlobalDesiredState;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.PageParams;
import io.edp.manager.api.PageResponse;
import io.edp.manager.api.VersionedResponses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springdoc.core.annotations.ParameterObject;
import io.swagger.v3.oas.annotations.Parameter;
import jakarta.validation.constraints.Size;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@GlobalDesiredState
@RequestMapping(path = "/api/v1/routing/routes", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Routing", description = "Routes of the distributed router, pushed to every host's engine")
class RouteController {

    private final RouteService routes;

    RouteController(RouteService routes) {
        this.routes = routes;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createRoute", summary = "Add a route",
            description = "Bumps every host's generation. 409 if the prefix already has a route on that output.")
    ResponseEntity<RouteResponse> create(@Valid @RequestBody RouteRequest request) {
        var route = routes.create(request);
        return VersionedResponses.created(route.id(), route);
    }

    @GetMapping
    @Operation(operationId = "listRoutes", summary = "List routes",
            description = "Sortable by id (default) and prefix; `prefix` and `output` select the routes with "
                    + "exactly that prefix (as stored: canonical CIDR) or output.")
    PageResponse<RouteResponse> list(@ParameterObject @Valid PageParams paging,
            @Parameter(description = "Exactly this prefix (canonical CIDR, as stored)", example = "10.128.0.0/16")
            @RequestParam(required = false) @Size(max = 50) String prefix,
            @Parameter(description = "Exactly this output physical NIC name", example = "vmnic1")
            @RequestParam(required = false) @Size(max = 63) String output) {
        return PageResponse.of(routes.list(prefix, output, paging.toPageable(Set.of("id", "prefix"), "id")));
    }

    @GetMapping("/{routeId}")
    @Operation(operationId = "getRoute", summary = "Get a route")
    ResponseEntity<RouteResponse> get(@PathVariable long routeId) {
        return VersionedResponses.ok(routes.get(routeId));
    }

    @PutMapping(path = "/{routeId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "replaceRoute", summary = "Replace a route",
            description = "Idempotent: an identical PUT keeps the ETag and bumps no generation.")
    ResponseEntity<RouteResponse> replace(@PathVariable long routeId, IfMatch ifMatch,
                                          @Valid @RequestBody RouteRequest request) {
        return VersionedResponses.ok(routes.replace(routeId, ifMatch, request));
    }

    @DeleteMapping("/{routeId}")
    @Operation(operationId = "deleteRoute", summary = "Delete a route")
    ResponseEntity<Void> delete(@PathVariable long routeId, IfMatch ifMatch) {
        routes.delete(routeId, ifMatch);
        return ResponseEntity.noContent().build();
    }
}
