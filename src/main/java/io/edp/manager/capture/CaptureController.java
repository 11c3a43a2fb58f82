package io.edp.manager.capture;

import java.util.List;
import java.util.UUID;

import io.edp.engine.capture.CaptureSpec;
import io.edp.manager.api.WithoutDatabase;
import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springframework.core.io.InputStreamResource;
import org.springframework.core.io.Resource;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

@RestController
@RequestMapping(path = "/api/v1/hosts/{hostId}/captures", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Captures", description = "Live packet captures on a port of a host's engine (pktcap-uw, tcpdump)")
// an embedded host's captures live with its engine, in memory: they answer while the database is away (an agent
// host's are in the database)
@WithoutDatabase
class CaptureController {

    static final String PCAP = "application/vnd.tcpdump.pcap";
    static final String PCAPNG = "application/x-pcapng";

    private final CaptureService captures;

    CaptureController(CaptureService captures) {
        this.captures = captures;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "startCapture", summary = "Start a live capture",
            description = """
                    Records what a port (a physical NIC by name, a virtual NIC by MAC or port name) receives, before \
                    the pipeline, and / or transmits, after the rewrite, into a classic pcap file (format PCAP, the \
                    default) or a pcapng file whose packets are marked inbound or outbound (PCAPNG), filtered by \
                    addresses, ports and protocol. Ends after maxPackets frames or durationSeconds, or when stopped \
                    (DELETE). Frames that find a worker's capture ring full are counted as dropped, never waited \
                    for. 400 for an unknown port, 404 when the host has no running engine, 409 when \
                    edp.capture.max-running captures already run on the host. A host placed EMBEDDED is captured \
                    on the replica that runs the embedded engines (edp.engines.embedded), which writes the file: \
                    any other replica answers 409. On a host placed AGENT the agent runs the capture and uploads \
                    its file, so any replica serves it; 400 on maxPackets when the limits could write more than \
                    edp.capture.max-agent-file.""")
    ResponseEntity<CaptureResponse> start(@PathVariable UUID hostId, @Valid @RequestBody CaptureRequest request) {
        var capture = captures.start(hostId, request);
        return ResponseEntity.created(ServletUriComponentsBuilder.fromCurrentRequestUri().path("/{id}")
                .buildAndExpand(capture.id()).toUri()).body(capture);
    }

    @GetMapping
    @Operation(operationId = "listCaptures", summary = "The host's captures",
            description = "Running and ended ones (kept for edp.capture.retention), oldest first, with their counts.")
    List<CaptureResponse> list(@PathVariable UUID hostId) {
        return captures.list(hostId);
    }

    @GetMapping("/{captureId}")
    @Operation(operationId = "getCapture", summary = "A capture's state and counts",
            description = """
                    A client that asks for the capture as a file (Accept: application/vnd.tcpdump.pcap or \
                    application/x-pcapng) gets the file instead, as from \
                    .../pcap; 406 when the file is in the other format.""",
            responses = @ApiResponse(responseCode = "200", description = "The capture's state, or its file",
                    content = {@Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                                    schema = @Schema(implementation = CaptureResponse.class)),
                            @Content(mediaType = PCAP, schema = @Schema(type = "string", format = "binary")),
                            @Content(mediaType = PCAPNG, schema = @Schema(type = "string", format = "binary"))}))
    CaptureResponse get(@PathVariable UUID hostId,
            @Parameter(description = "The capture's id") @PathVariable UUID captureId) {
        return captures.get(hostId, captureId);
    }

    /** {@link #get} for a client that accepts only capture files: the file, as {@link #pcap} serves it. */
    @Hidden
    @GetMapping(path = "/{captureId}", produces = {PCAP, PCAPNG})
    ResponseEntity<Resource> file(@PathVariable UUID hostId, @PathVariable UUID captureId,
            @RequestHeader(HttpHeaders.ACCEPT) String accept) throws HttpMediaTypeNotAcceptableException {
        var file = pcap(hostId, captureId);
        var type = file.getHeaders().getContentType();
        if (MediaType.parseMediaTypes(accept).stream().noneMatch(accepted -> accepted.includes(type))) {
            throw new HttpMediaTypeNotAcceptableException(List.of(type));
        }
        return file;
    }

    @GetMapping(path = "/{captureId}/pcap", produces = {PCAP, PCAPNG})
    @Operation(operationId = "getCapturePcap", summary = "A capture's file",
            description = """
                    The file in the format the capture was started with: classic pcap (application/vnd.tcpdump.pcap) \
                    or pcapng (application/x-pcapng); tcpdump, tshark and Wireshark read both. While the capture \
                    runs, what it has written so far: whole records only, at most a millisecond behind.""",
            responses = @ApiResponse(responseCode = "200", description = "The capture file",
                    content = {@Content(mediaType = PCAP, schema = @Schema(type = "string", format = "binary")),
                            @Content(mediaType = PCAPNG, schema = @Schema(type = "string", format = "binary"))}))
    ResponseEntity<Resource> pcap(@PathVariable UUID hostId,
            @Parameter(description = "The capture's id") @PathVariable UUID captureId) {
        var pcap = captures.pcap(hostId, captureId);
        return ResponseEntity.ok().contentType(MediaType.parseMediaType(pcap.mediaType())).contentLength(pcap.length())
                .header(HttpHeaders.CONTENT_DISPOSITION,
                        ContentDisposition.attachment().filename(pcap.name()).build().toString())
                .body(new InputStreamResource(pcap.content()));
    }

    @DeleteMapping("/{captureId}")
    @Operation(operationId = "deleteCapture", summary = "Stop a capture, or remove an ended one",
            description = """
                    A running capture stops (200 with its final state; its file stays); an ended one is removed \
                    with its file (204).""",
            responses = {@ApiResponse(responseCode = "200", description = "Stopped: its final state",
                    content = @Content(schema = @Schema(implementation = CaptureResponse.class))),
                    @ApiResponse(responseCode = "204", description = "Removed with its file")})
    ResponseEntity<CaptureResponse> delete(@PathVariable UUID hostId,
            @Parameter(description = "The capture's id") @PathVariable UUID captureId) {
        return captures.delete(hostId, captureId).map(ResponseEntity::ok)
                .orElseGet(() -> ResponseEntity.noContent().build());
    }
}
