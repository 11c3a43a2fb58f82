package io.edp.manager.host.vnic;

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
@RequestMapping(path = "/api/v1/hosts/{hostId}/vms/{vmId}/vnics", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Virtual NICs", description = "Virtual NICs of a VM")
class VirtualNicController {

    private static final Set<String> SORTABLE = Set.of("mac", "vlan");

    private final VirtualNicService nics;
    private final MergePatch mergePatch;

    VirtualNicController(VirtualNicService nics, MergePatch mergePatch) {
        this.nics = nics;
        this.mergePatch = mergePatch;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createVirtualNic", summary = "Add a virtual NIC to a VM",
            description = "Its MAC must be new on the VM's host (409).")
    ResponseEntity<VirtualNicResponse> create(@PathVariable UUID hostId, @PathVariable UUID vmId,
                                               @Valid @RequestBody VirtualNicRequest request) {
        var nic = nics.create(hostId, vmId, request);
        return VersionedResponses.created(nic.id(), nic);
    }

    @GetMapping
    @Operation(operationId = "listVirtualNics", summary = "List a VM's virtual NICs",
            description = "Sortable by mac (default) and vlan. `mac` finds one virtual NIC by MAC.")
    PageResponse<VirtualNicResponse> list(@PathVariable UUID hostId, @PathVariable UUID vmId,
                                          @ParameterObject @Valid PageParams paging,
            @Parameter(description = "Exactly this MAC (any case): a page of zero or one NIC",
                    example = "00:50:56:aa:bb:01")
            @RequestParam(required = false) @Size(max = 17) String mac) {
        return PageResponse.of(nics.list(hostId, vmId, mac, paging.toPageable(SORTABLE, "mac")));
    }

    @GetMapping("/{nicId}")
    @Operation(operationId = "getVirtualNic", summary = "Get a virtual NIC")
    ResponseEntity<VirtualNicResponse> get(@PathVariable UUID hostId, @PathVariable UUID vmId,
                                           @PathVariable UUID nicId) {
        return VersionedResponses.ok(nics.get(hostId, vmId, nicId));
    }

    @PutMapping(path = "/{nicId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "replaceVirtualNic", summary = "Replace a virtual NIC")
    ResponseEntity<VirtualNicResponse> replace(@PathVariable UUID hostId, @PathVariable UUID vmId,
                                               @PathVariable UUID nicId, IfMatch ifMatch,
                                               @Valid @RequestBody VirtualNicRequest request) {
        return VersionedResponses.ok(nics.update(hostId, vmId, nicId, ifMatch, current -> request));
    }

    @PatchMapping(path = "/{nicId}", consumes = MergePatch.MEDIA_TYPE)
    @Operation(operationId = "patchVirtualNic", summary = "Change a virtual NIC with a JSON Merge Patch")
    ResponseEntity<VirtualNicResponse> patch(@PathVariable UUID hostId, @PathVariable UUID vmId,
                                             @PathVariable UUID nicId, IfMatch ifMatch,
                                             @RequestBody JsonNode patch) {
        return VersionedResponses.ok(nics.update(hostId, vmId, nicId, ifMatch,
                current -> mergePatch.apply(current, patch, VirtualNicRequest.class)));
    }

    @DeleteMapping("/{nicId}")
    @Operation(operationId = "deleteVirtualNic", summary = "Delete a virtual NIC")
    ResponseEntity<Void> delete(@PathVariable UUID hostId, @PathVariable UUID vmId, @PathVariable UUID nicId,
                                IfMatch ifMatch) {
        nics.delete(hostId, vmId, nicId, ifMatch);
        return ResponseEntity.noContent().build();
    }
}
