package io.edp.manager.connection;

import java.util.Comparator;
import java.util.Set;
import java.util.UUID;

import io.edp.engine.slowpath.Cidr;
import io.edp.engine.slowpath.ConnectionEntry;
import io.edp.engine.slowpath.ConnectionFilter;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.api.PageParams;
import io.edp.manager.api.PageResponse;
import io.edp.manager.api.WithoutDatabase;
import io.edp.manager.firewall.Protocol;
import io.edp.manager.engines.HostEngines;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.data.domain.PageImpl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Validated
@RequestMapping(path = "/api/v1/hosts/{hostId}/connections", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Connections", description = "The connections a host's engine tracks, listed and cleared as conntrack -L "
        + "and -D do. 404 while the host runs no engine.")
@WithoutDatabase // reads and clears the engine's table in memory
class ConnectionController {

    private final HostEngines engines;

    ConnectionController(HostEngines engines) {
        this.engines = engines;
    }

    @GetMapping
    @Operation(operationId = "listConnections", summary = "List a host's connections",
            description = "Live connections, filtered by address (an address or prefix, either end), port (either "
                    + "end), protocol and state; sortable by id (default) or idleMillis. The table is read one "
                    + "stripe at a time while packets change it, so pages of a busy table are not one image.")
    PageResponse<ConnectionResponse> list(@PathVariable UUID hostId, @ParameterObject @Valid PageParams paging,
            @ParameterObject @Valid Selection selection) {
        var pageable = paging.toPageable(Set.of("id", "idleMillis"), "id");
        Comparator<ConnectionResponse> order = null;
        for (var o : pageable.getSort()) {
            Comparator<ConnectionResponse> by = o.getProperty().equals("idleMillis")
                    ? Comparator.comparingLong(ConnectionResponse::idleMillis)
                    : Comparator.comparing(ConnectionResponse::id);
            by = o.isDescending() ? by.reversed() : by;
            order = order == null ? by : order.thenComparing(by);
        }
        var all = engines.require(hostId).listConnections(selection.filter()).stream().map(ConnectionResponse::of)
                .sorted(order).toList();
        int from = (int) Math.min(pageable.getOffset(), all.size());
        var page = all.subList(from, (int) Math.min(all.size(), (long) from + pageable.getPageSize()));
        return PageResponse.of(new PageImpl<>(page, pageable, all.size()));
    }

    @DeleteMapping("/{connectionId}")
    @Operation(operationId = "deleteConnection", summary = "Clear one connection",
            description = "As conntrack -D: the connection leaves the table and the flow-cache entries that rested "
                    + "on it are dropped, so its next packets meet the rules (a reply that passed only as part of it "
                    + "is dropped); one of a logged rule writes TERM … CLEARED with its counts in the packet log. "
                    + "Either direction's tuple names it. 404 when no live connection has that name.")
    ResponseEntity<Void> delete(@PathVariable UUID hostId, @Parameter(example = "6-10.0.0.1-40000-10.0.0.2-80")
            @PathVariable String connectionId) {
        ConnectionFilter filter;
        try {
            filter = ConnectionEntry.filterFor(connectionId);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("connectionId", e.getMessage());
        }
        if (engines.require(hostId).clearConnections(filter) == 0) {
            throw new NotFoundException("Host " + hostId + " has no connection " + connectionId);
        }
        return ResponseEntity.noContent().build();
    }

    @DeleteMapping
    @Operation(operationId = "deleteConnections", summary = "Clear connections: all, or those the filters select",
            description = "As conntrack -D (or -F without filters): the same filters as the list. Each cleared "
                    + "connection of a logged rule writes TERM … CLEARED with its counts in the packet log.")
    ClearedConnections deleteAll(@PathVariable UUID hostId, @ParameterObject @Valid Selection selection) {
        return new ClearedConnections(engines.require(hostId).clearConnections(selection.filter()));
    }

    /** The list's and the clear's filters. */
    record Selection(
            @Parameter(description = "An address or prefix either end is in", example = "10.0.0.0/24") String address,
            @Parameter(description = "A port either end uses", example = "80") @Min(0) @Max(65535) Integer port,
            @Parameter(description = "Protocol", example = "TCP") Protocol protocol,
            @Parameter(description = "State", example = "ESTABLISHED") ConnectionState state) {

        ConnectionFilter filter() {
            Cidr cidr;
            try {
                cidr = address == null ? null : Cidr.parse(address, "address");
            } catch (IllegalArgumentException e) {
                throw new InvalidRequestException("address", e.getMessage());
            }
            return new ConnectionFilter(cidr, port == null ? -1 : port, null, -1,
                    protocol == null || protocol == Protocol.ANY ? -1 : protocol.number(),
                    state == null ? 0 : state.number());
        }
    }
}
