package io.edp.manager.host.pnic;

import java.util.Set;
import java.util.UUID;

import io.edp.manager.api.IfMatch;
import io.edp.manager.api.MergePatch;
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
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

@RestController
@RequestMapping(path = "/api/v1/hosts/{hostId}/pnics", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Physical NICs", description = "Physical NICs of a host, with their queues and driver")
class PhysicalNicController {

    private static final Set<String> SORTABLE = Set.of("name", "numaNode", "speedMbps");

    private final PhysicalNicService nics;
    private final MergePatch mergePatch;

    PhysicalNicController(PhysicalNicService nics, MergePatch mergePatch) {
        this.nics = nics;
        this.mergePatch = mergePatch;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createPhysicalNic", summary = "Add a physical NIC to a host",
            description = "Its NUMA node must exist on the host (400); its name must be new on the host (409).")
    ResponseEntity<PhysicalNicResponse> create(@PathVariable UUID hostId,
                                               @Valid @RequestBody PhysicalNicRequest request) {
        var nic = nics.create(hostId, request);
        return VersionedResponses.created(nic.id(), nic);
    }

    @GetMapping
    @Operation(operationId = "listPhysicalNics", summary = "List a host's physical NICs",
            description = "Sortable by name (default), numaNode, speedMbps. `name` finds one NIC by name.")
    PageResponse<PhysicalNicResponse> list(@PathVariable UUID hostId, @ParameterObject @Valid PageParams paging,
            @Parameter(description = "Exactly this name: a page of zero or one NIC", example = "vmnic0")
            @RequestParam(required = false) @Size(max = 63) String name) {
        return PageResponse.of(nics.list(hostId, name, paging.toPageable(SORTABLE, "name")));
    }

    @GetMapping("/{nicId}")
    @Operation(operationId = "getPhysicalNic", summary = "Get a physical NIC")
    ResponseEntity<PhysicalNicResponse> get(@PathVariable UUID hostId, @PathVariable UUID nicId) {
        return VersionedResponses.ok(nics.get(hostId, nicId));
    }

    @PutMapping(path = "/{nicId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "replacePhysicalNic", summary = "Replace a physical NIC")
    ResponseEntity<PhysicalNicResponse> replace(@PathVariable UUID hostId, @PathVariable UUID nicId, IfMatch ifMatch,
                                                @Valid @RequestBody PhysicalNicRequest request) {
        return VersionedResponses.ok(nics.update(hostId, nicId, ifMatch, current -> request));
    }

    @PatchMapping(path = "/{nicId}", consumes = MergePatch.MEDIA_TYPE)
    @Operation(operationId = "patchPhysicalNic", summary = "Change a physical NIC with a JSON Merge Patch",
            description = "To switch the driver kind, send the whole new `driver` object with its `kind`.")
    ResponseEntity<PhysicalNicResponse> patch(@PathVariable UUID hostId, @PathVariable UUID nicId, IfMatch ifMatch,
                                              @RequestBody JsonNode patch) {
        return VersionedResponses.ok(nics.update(hostId, nicId, ifMatch,
                current -> mergePatch.apply(current, patch, PhysicalNicRequest.class)));
    }

    @DeleteMapping("/{nicId}")
    @Operation(operationId = "deletePhysicalNic", summary = "Delete a physical NIC")
    ResponseEntity<Void> delete(@PathVariable UUID hostId, @PathVariable UUID nicId, IfMatch ifMatch) {
        nics.delete(hostId, nicId, ifMatch);
        return ResponseEntity.noContent().build();
    }
}
