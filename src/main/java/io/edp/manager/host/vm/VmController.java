package io.edp.manager.host.vm;

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
@RequestMapping(path = "/api/v1/hosts/{hostId}/vms", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "VMs", description = "VMs of a host")
class VmController {

    private static final Set<String> SORTABLE = Set.of("name", "vcpus", "numaNode");

    private final VmService vms;
    private final MergePatch mergePatch;

    VmController(VmService vms, MergePatch mergePatch) {
        this.vms = vms;
        this.mergePatch = mergePatch;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createVm", summary = "Add a VM to a host",
            description = "Its NUMA node must exist on the host (400); its name must be new on the host (409).")
    ResponseEntity<VmResponse> create(@PathVariable UUID hostId,
                                               @Valid @RequestBody VmRequest request) {
        var vm = vms.create(hostId, request);
        return VersionedResponses.created(vm.id(), vm);
    }

    @GetMapping
    @Operation(operationId = "listVms", summary = "List a host's VMs",
            description = "Sortable by name (default), vcpus, numaNode. `name` finds one VM by name.")
    PageResponse<VmResponse> list(@PathVariable UUID hostId, @ParameterObject @Valid PageParams paging,
            @Parameter(description = "Exactly this name: a page of zero or one VM", example = "web")
            @RequestParam(required = false) @Size(max = 80) String name) {
        return PageResponse.of(vms.list(hostId, name, paging.toPageable(SORTABLE, "name")));
    }

    @GetMapping("/{vmId}")
    @Operation(operationId = "getVm", summary = "Get a VM")
    ResponseEntity<VmResponse> get(@PathVariable UUID hostId, @PathVariable UUID vmId) {
        return VersionedResponses.ok(vms.get(hostId, vmId));
    }

    @PutMapping(path = "/{vmId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "replaceVm", summary = "Replace a VM")
    ResponseEntity<VmResponse> replace(@PathVariable UUID hostId, @PathVariable UUID vmId, IfMatch ifMatch,
                                                @Valid @RequestBody VmRequest request) {
        return VersionedResponses.ok(vms.update(hostId, vmId, ifMatch, current -> request));
    }

    @PatchMapping(path = "/{vmId}", consumes = MergePatch.MEDIA_TYPE)
    @Operation(operationId = "patchVm", summary = "Change a VM with a JSON Merge Patch")
    ResponseEntity<VmResponse> patch(@PathVariable UUID hostId, @PathVariable UUID vmId, IfMatch ifMatch,
                                              @RequestBody JsonNode patch) {
        return VersionedResponses.ok(vms.update(hostId, vmId, ifMatch,
                current -> mergePatch.apply(current, patch, VmRequest.class)));
    }

    @DeleteMapping("/{vmId}")
    @Operation(operationId = "deleteVm", summary = "Delete a VM", description = "Deletes its virtual NICs with it.")
    ResponseEntity<Void> delete(@PathVariable UUID hostId, @PathVariable UUID vmId, IfMatch ifMatch) {
        vms.delete(hostId, vmId, ifMatch);
        return ResponseEntity.noContent().build();
    }
}
