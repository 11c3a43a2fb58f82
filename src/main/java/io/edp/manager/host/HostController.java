package io.edp.manager.host;

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
@RequestMapping(path = "/api/v1/hosts", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Hosts", description = "Hosts of the inventory with their NUMA nodes and labels")
class HostController {

    private static final Set<String> SORTABLE = Set.of("name", "managementAddress");

    private final HostService hosts;
    private final HostList list;
    private final MergePatch mergePatch;

    HostController(HostService hosts, HostList list, MergePatch mergePatch) {
        this.hosts = hosts;
        this.list = list;
        this.mergePatch = mergePatch;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createHost", summary = "Add a host",
            description = "Answers 201 with the host, its Location and ETag.")
    ResponseEntity<HostResponse> create(@Valid @RequestBody HostRequest request) {
        var host = hosts.create(request);
        return VersionedResponses.created(host.id(), host);
    }

    @GetMapping
    @Operation(operationId = "listHosts", summary = "List hosts",
            description = "Sortable by name (default) and managementAddress. `name` finds one host by name; "
                    + "`label` selects by labels.")
    PageResponse<HostResponse> list(@ParameterObject @Valid PageParams paging,
                                    @ParameterObject @Valid HostFilter filter) {
        return list.page(filter, paging.toPageable(SORTABLE, "name"));
    }

    @GetMapping("/{hostId}")
    @Operation(operationId = "getHost", summary = "Get a host")
    ResponseEntity<HostResponse> get(@PathVariable UUID hostId) {
        return VersionedResponses.ok(hosts.get(hostId));
    }

    @PutMapping(path = "/{hostId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "replaceHost", summary = "Replace a host",
            description = "409 if a NUMA node that a NIC or VM of the host uses would disappear.")
    ResponseEntity<HostResponse> replace(@PathVariable UUID hostId, IfMatch ifMatch,
                                         @Valid @RequestBody HostRequest request) {
        return VersionedResponses.ok(hosts.update(hostId, ifMatch, current -> request));
    }

    @PatchMapping(path = "/{hostId}", consumes = MergePatch.MEDIA_TYPE)
    @Operation(operationId = "patchHost", summary = "Change a host with a JSON Merge Patch",
            description = "RFC 7386: members given replace the current ones, null removes one (e.g. a label).")
    ResponseEntity<HostResponse> patch(@PathVariable UUID hostId, IfMatch ifMatch, @RequestBody JsonNode patch) {
        return VersionedResponses.ok(hosts.update(hostId, ifMatch,
                current -> mergePatch.apply(current, patch, HostRequest.class)));
    }

    @DeleteMapping("/{hostId}")
    @Operation(operationId = "deleteHost", summary = "Delete a host",
            description = "Deletes its NICs, VMs and virtual NICs with it.")
    ResponseEntity<Void> delete(@PathVariable UUID hostId, IfMatch ifMatch) {
        hosts.delete(hostId, ifMatch);
        return ResponseEntity.noContent().build();
    }
}
