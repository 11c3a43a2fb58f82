package io.edp.manager.agent;

import java.io.IOException;
import java.util.UUID;

import io.edp.agent.AgentHeaders;
import io.edp.agent.EngineJson;
import io.edp.engine.capture.CaptureStats;
import io.edp.manager.api.AgentReports;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.capture.UploadedCaptures;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Where an agent uploads the files and states of the live captures it runs for its host ({@link UploadedCaptures}):
 * when a capture ends, when it is stopped, and when an operator asks for a running one's file. Agent token only,
 * each on the path of its own host, and only for that host's captures (another host's capture is a 404).
 */
@RestController
@AgentReports
@RequestMapping(path = AgentReports.PATH + "hosts/{hostName}/captures/{captureId}")
@Tag(name = "Agents")
class AgentCaptureController {

    /** The file upload's path: its body is bounded by the capture's own limits, not edp.requests.max-body-size. */
    static final String FILE = "/file";

    private final UploadedCaptures captures;
    private final AgentRepository agents;

    AgentCaptureController(UploadedCaptures captures, AgentRepository agents) {
        this.captures = captures;
        this.agents = agents;
    }

    @PutMapping(path = FILE, consumes = MediaType.ALL_VALUE)
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(operationId = "uploadAgentCaptureFile", summary = "Upload a capture's file",
            description = "Agent token only. The capture's file as far as it holds whole records, in whatever "
                    + "format it was written (the Content-Type says which: application/vnd.tcpdump.pcap, "
                    + "application/x-pcapng); GET /api/v1/hosts/{id}/captures/{captureId}/pcap serves it back "
                    + "from any replica. 404 when the host has no such capture (removed: the agent deletes its "
                    + "file), 413 beyond what the capture's limits can write (every frame at its snaplen).",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content =
                    @Content(mediaType = "application/vnd.tcpdump.pcap", schema = @Schema(type = "string",
                            format = "binary", description = "At most what the capture's limits can write"))))
    void file(@AuthenticationPrincipal AgentPrincipal agent,
              @Parameter(description = "Name of the agent's host (its --host)", example = "esx-01")
              @PathVariable String hostName,
              @Parameter(description = "The capture's id") @PathVariable UUID captureId,
              @Parameter(description = "The agent's version", example = "0.1.0")
              @RequestHeader(name = AgentHeaders.VERSION, required = false) String version,
              @Parameter(hidden = true) @RequestHeader(HttpHeaders.CONTENT_TYPE) String mediaType,
              HttpServletRequest request) throws IOException {
        agents.seen(agent.hostId(), version);
        captures.storeFile(agent.hostId(), captureId, MediaType.parseMediaType(mediaType).toString(),
                request.getInputStream());
    }

    @PutMapping(path = "/stats", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(operationId = "uploadAgentCaptureStats", summary = "Upload a capture's state",
            description = "Agent token only. The capture's state and counts when its file was uploaded, just "
                    + "before: once ENDED, the manager answers for the capture from what was uploaded, and the "
                    + "agent forgets it with its file. 404 when the host has no such capture.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content =
                    @Content(schema = @Schema(types = "object", description = "The capture's CaptureStats record as "
                            + "JSON: state, endReason, failure, captured, dropped, bytes, fileBytes, endedAt"))))
    void stats(@AuthenticationPrincipal AgentPrincipal agent,
               @Parameter(description = "Name of the agent's host (its --host)", example = "esx-01")
               @PathVariable String hostName,
               @Parameter(description = "The capture's id") @PathVariable UUID captureId,
               @Parameter(description = "The agent's version", example = "0.1.0")
               @RequestHeader(name = AgentHeaders.VERSION, required = false) String version,
               @RequestBody JsonNode stats) {
        agents.seen(agent.hostId(), version);
        CaptureStats read;
        try {
            read = EngineJson.captureStats(stats);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("stats", e.getMessage());
        }
        captures.storeStats(agent.hostId(), captureId, read);
    }
}
