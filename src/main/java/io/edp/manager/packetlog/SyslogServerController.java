package io.edp.manager.packetlog;

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
@RequestMapping(path = "/api/v1/syslog-servers", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Packet logging", description = "Syslog servers of the firewall packet log, used by every host's engine")
class SyslogServerController {

    private final SyslogServerService servers;

    SyslogServerController(SyslogServerService servers) {
        this.servers = servers;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createSyslogServer", summary = "Add a syslog server",
            description = "Bumps every host's generation. 409 if the same host, port and transport exist.")
    ResponseEntity<SyslogServerResponse> create(@Valid @RequestBody SyslogServerRequest request) {
        var server = servers.create(request);
        return VersionedResponses.created(server.id(), server);
    }

    @GetMapping
    @Operation(operationId = "listSyslogServers", summary = "List syslog servers",
            description = "Sortable by id (default) and host; `host` selects the servers with exactly that host.")
    PageResponse<SyslogServerResponse> list(@ParameterObject @Valid PageParams paging,
            @Parameter(description = "Exactly this host name or address, as stored", example = "10.0.0.50")
            @RequestParam(required = false) @Size(max = 253) String host) {
        return PageResponse.of(servers.list(host, paging.toPageable(Set.of("id", "host"), "id")));
    }

    @GetMapping("/{serverId}")
    @Operation(operationId = "getSyslogServer", summary = "Get a syslog server")
    ResponseEntity<SyslogServerResponse> get(@PathVariable long serverId) {
        return VersionedResponses.ok(servers.get(serverId));
    }

    @PutMapping(path = "/{serverId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "replaceSyslogServer", summary = "Replace a syslog server",
            description = "Idempotent: an identical PUT keeps the ETag and bumps no generation.")
    ResponseEntity<SyslogServerResponse> replace(@PathVariable long serverId, IfMatch ifMatch,
                                                 @Valid @RequestBody SyslogServerRequest request) {
        return VersionedResponses.ok(servers.replace(serverId, ifMatch, request));
    }

    @DeleteMapping("/{serverId}")
    @Operation(operationId = "deleteSyslogServer", summary = "Delete a syslog server")
    ResponseEntity<Void> delete(@PathVariable long serverId, IfMatch ifMatch) {
        servers.delete(serverId, ifMatch);
        return ResponseEntity.noContent().build();
    }
}
