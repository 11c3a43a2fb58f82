package io.edp.manager.trace;

import java.util.UUID;

import io.edp.manager.api.ReadOnlyPost;
import io.edp.manager.api.WithoutDatabase;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/hosts/{hostId}/trace", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Trace", description = "Why was my packet dropped? A packet traced through a host's engine")
@WithoutDatabase // reads the engine in memory: answers while the database is away
class TraceController {

    private final TraceService traces;

    TraceController(TraceService traces) {
        this.traces = traces;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @ReadOnlyPost
    @Operation(operationId = "tracePacket", summary = "Trace a packet through the host's engine",
            description = """
                    What the engine would do with the packet now (NSX Traceflow, OVS ofproto/trace): the parsed flow \
                    key, the switching decision, the firewall rule and the connection found, the route and next \
                    hop, what the owning worker's flow cache holds for the key, and the verdict — the rewritten \
                    frame and its output port, or the drop reason. Computed against the running tables without \
                    side effects: no connection created, no cache entry installed, no counter moved; viewers may \
                    trace, and a trace is not an audited write. 404 when the host has no running engine.""")
    TraceResponse trace(@PathVariable UUID hostId, @Valid @RequestBody TraceRequest request) {
        return traces.trace(hostId, request);
    }
}
