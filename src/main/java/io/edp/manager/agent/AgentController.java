package io.edp.manager.agent;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.edp.agent.AgentAnswer;
import io.edp.agent.AgentDesiredState;
import io.edp.agent.AgentHeaders;
import io.edp.agent.AgentRealizationReport;
import io.edp.agent.AgentStatsReport;
import io.edp.agent.EngineJson;
import io.edp.engine.EngineStats;
import io.edp.manager.api.AgentReports;
import io.edp.manager.api.ConflictException;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.LongPollWait;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.host.Placement;
import io.edp.manager.realization.AgentRealization;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * What agents call, authenticated by their host's agent token ({@code Authorization: Bearer}), each on the path of
 * its own host only (the security configuration checks the name). The host is named by name, the agent's
 * {@code --host}: a token file copied to the wrong machine then fails with 403 instead of running another host.
 */
@RestController
@AgentReports
@RequestMapping(path = AgentReports.PATH + "hosts/{hostName}")
@Tag(name = "Agents", description = "Agents run a host's engine on the host itself (placement AGENT)")
class AgentController {

    static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

    private final DesiredStateWatches watches;
    private final AgentRealization realization;
    private final AgentRepository agents;
    private final AgentProperties properties;
    private final EngineRequests requests;

    AgentController(DesiredStateWatches watches, AgentRealization realization, AgentRepository agents,
                    AgentProperties properties, EngineRequests requests) {
        this.watches = watches;
        this.realization = realization;
        this.agents = agents;
        this.properties = properties;
        this.requests = requests;
    }

    @GetMapping(path = "/desired-state", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "watchAgentDesiredState", summary = "Get, or wait for, the host's whole desired state",
            description = "Agent token only. A long poll: answers 200 with the whole desired state at once when "
                    + "the host's desired generation is not `after` (or `after` is absent), else as soon as it "
                    + "changes (a change committed through any manager replica) or a request to the host's engine is "
                    + "queued (`requests`, each handed out once), else 204 when `wait` runs out.")
    DeferredResult<ResponseEntity<AgentDesiredState>> desiredState(
            @AuthenticationPrincipal AgentPrincipal agent,
            @Parameter(description = "Name of the agent's host (its --host)", example = "esx-01")
            @PathVariable String hostName,
            @Parameter(description = "The generation the agent runs; absent: answer now", example = "7")
            @RequestParam(required = false) Long after,
            @Parameter(description = "How long to wait for a change at most, e.g. 30s (at most edp.agent.max-wait, "
                    + "60 s by default)", example = "30s")
            @RequestParam(defaultValue = "30s") String wait,
            @Parameter(description = "The agent's version", example = "0.1.0")
            @RequestHeader(name = AgentHeaders.VERSION, required = false) String version) {
        var duration = LongPollWait.parse(wait, properties.maxWait());
        agents.seen(agent.hostId(), version);
        return watches.await(agent.hostId(), after, duration);
    }

    @PutMapping(path = "/engine-requests/{requestId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(operationId = "answerAgentEngineRequest", summary = "Answer a request to the host's engine",
            description = "Agent token only. The result of one of the `requests` the desired state handed out, or "
                    + "the engine's refusal; the operator's call waiting on any replica answers with it. 404 when "
                    + "the host has no such request waiting (answered already, or its caller stopped waiting).")
    void answer(@AuthenticationPrincipal AgentPrincipal agent,
                @Parameter(description = "Name of the agent's host (its --host)", example = "esx-01")
                @PathVariable String hostName,
                @Parameter(description = "Id of the request, as handed out")
                @PathVariable UUID requestId,
                @Parameter(description = "The agent's version", example = "0.1.0")
                @RequestHeader(name = AgentHeaders.VERSION, required = false) String version,
                @Valid @RequestBody AgentAnswer answer) {
        agents.seen(agent.hostId(), version);
        requests.answer(agent.hostId(), requestId, answer);
    }

    @PutMapping(path = "/realization", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(operationId = "reportAgentRealization", summary = "Report what the agent did with a generation",
            description = "Agent token only. Writes the host's realization as the manager's own reconciler does "
                    + "for an embedded engine: GET /api/v1/hosts/{id}/realization and its long poll see it. 409 "
                    + "when the host is not placed AGENT.")
    void realization(@AuthenticationPrincipal AgentPrincipal agent,
                     @Parameter(description = "Name of the agent's host (its --host)", example = "esx-01")
                     @PathVariable String hostName,
                     @Parameter(description = "The agent's version", example = "0.1.0")
                     @RequestHeader(name = AgentHeaders.VERSION, required = false) String version,
                     @Valid @RequestBody AgentRealizationReport report) {
        if (report.state() == AgentRealizationReport.State.SUCCESS) {
            agents.seen(agent.hostId(), version);
            if (realization.succeededByAgent(agent.hostId(), report.generation())) {
                return;
            } // else the checks below say what is wrong
        }
        reportFrom(agent, version);
        long desired = realization.desiredGenerations(List.of(agent.hostId()))
                .getOrDefault(agent.hostId(), 0L);
        if (report.generation() > desired) {
            throw new InvalidRequestException("generation", "must be at most the host's desired generation "
                    + desired);
        }
        switch (report.state()) {
            case SUCCESS -> realization.succeeded(agent.hostId(), report.generation());
            case FAILED -> realization.failed(agent.hostId(), report.reason() == null ? "the agent gave no reason"
                    : report.reason());
        }
    }

    @PutMapping(path = "/stats", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(operationId = "reportAgentStats", summary = "Store the agent's latest statistics snapshot",
            description = "Agent token only. The host's statistics endpoints serve it, with its takenAt.")
    void stats(@AuthenticationPrincipal AgentPrincipal agent,
               @Parameter(description = "Name of the agent's host (its --host)", example = "esx-01")
               @PathVariable String hostName,
               @Parameter(description = "The agent's version", example = "0.1.0")
               @RequestHeader(name = AgentHeaders.VERSION, required = false) String version,
               @Valid @RequestBody AgentStatsReport report) {
        reportFrom(agent, version);
        EngineStats stats;
        try {
            stats = EngineJson.stats(report.stats());
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("stats", e.getMessage());
        }
        agents.storeStats(agent.hostId(), EngineJson.MAPPER.writeValueAsString(report.stats()), stats.takenAt(),
                report.generation());
    }

    /** A report: the agent was heard from, and its host must be placed AGENT (else 409). */
    private void reportFrom(AgentPrincipal agent, String version) {
        agents.seen(agent.hostId(), version);
        // one indexed read, not the host entity: every agent reports after every change
        var placement = agents.placement(agent.hostId())
                .orElseThrow(() -> new NotFoundException("No host with id " + agent.hostId()));
        if (placement != Placement.AGENT) {
            throw new ConflictException("Host '" + agent.hostName() + "' is placed EMBEDDED: the manager runs its "
                    + "engine; set its placement to AGENT for its agent to realize it");
        }
    }
}
