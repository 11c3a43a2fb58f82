package io.edp.manager.telemetry;

import java.util.Set;

import io.edp.manager.api.GlobalDesiredState;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.PageParams;
import io.edp.manager.api.PageResponse;
import io.edp.manager.api.VersionedResponses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Size;
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
@GlobalDesiredState
@RequestMapping(path = "/api/v1/ipfix-collectors", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Telemetry", description = "IPFIX collectors every host exports its flows to, and telemetry statistics")
class IpfixCollectorController {

    private final IpfixCollectorService collectors;

    IpfixCollectorController(IpfixCollectorService collectors) {
        this.collectors = collectors;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createIpfixCollector", summary = "Add an IPFIX collector",
            description = "Bumps every host's generation. 409 if the address and port already have a collector.")
    ResponseEntity<IpfixCollectorResponse> create(@Valid @RequestBody IpfixCollectorRequest request) {
        var collector = collectors.create(request);
        return VersionedResponses.created(collector.id(), collector);
    }

    @GetMapping
    @Operation(operationId = "listIpfixCollectors", summary = "List IPFIX collectors",
            description = "Sortable by id (default) and address; `address` selects the collectors at that address.")
    PageResponse<IpfixCollectorResponse> list(@ParameterObject @Valid PageParams paging,
            @Parameter(description = "Exactly this address (canonical form, as stored)", example = "192.0.2.10")
            @RequestParam(required = false) @Size(max = 45) String address) {
        return PageResponse.of(collectors.list(address, paging.toPageable(Set.of("id", "address"), "id")));
    }

    @GetMapping("/{collectorId}")
    @Operation(operationId = "getIpfixCollector", summary = "Get an IPFIX collector")
    ResponseEntity<IpfixCollectorResponse> get(@PathVariable long collectorId) {
        return VersionedResponses.ok(collectors.get(collectorId));
    }

    @PutMapping(path = "/{collectorId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "replaceIpfixCollector", summary = "Replace an IPFIX collector",
            description = "Idempotent: an identical PUT keeps the ETag and bumps no generation.")
    ResponseEntity<IpfixCollectorResponse> replace(@PathVariable long collectorId, IfMatch ifMatch,
            @Valid @RequestBody IpfixCollectorRequest request) {
        return VersionedResponses.ok(collectors.replace(collectorId, ifMatch, request));
    }

    @DeleteMapping("/{collectorId}")
    @Operation(operationId = "deleteIpfixCollector", summary = "Delete an IPFIX collector")
    ResponseEntity<Void> delete(@PathVariable long collectorId, IfMatch ifMatch) {
        collectors.delete(collectorId, ifMatch);
        return ResponseEntity.noContent().build();
    }
}
