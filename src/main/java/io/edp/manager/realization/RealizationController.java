package io.edp.manager.realization;

import java.time.Duration;
import java.util.Set;
import java.util.UUID;

import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.LongPollWait;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.api.PageParams;
import io.edp.manager.api.PageResponse;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

@RestController
@Tag(name = "Realization", description = "Whether each host's engine runs its desired state")
class RealizationController {

    static final Duration MAX_WAIT = Duration.ofSeconds(60);

    private final RealizationRepository realizations;
    private final RealizationWaits waits;

    RealizationController(RealizationRepository realizations, RealizationWaits waits) {
        this.realizations = realizations;
        this.waits = waits;
    }

    @GetMapping(path = "/api/v1/hosts/{hostId}/realization", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getRealization", summary = "Get a host's realization status, or wait for a generation",
            description = "Without `wait`: one primary-key read. With `wait` (e.g. `30s`, at most 60 s): a long "
                    + "poll that answers as soon as `generation` (default: the host's desired generation now) is "
                    + "realized (realizedGeneration >= generation) or the push failed (state FAILED, "
                    + "failureReason says why), else when the wait runs out, with the status as it is then. The "
                    + "generation of a write is in its `EDP-Generation` response header.")
    DeferredResult<RealizationStatus> get(@PathVariable UUID hostId,
            @Parameter(description = "The desired generation to wait for (a write's EDP-Generation)", example = "7")
            @RequestParam(required = false) Long generation,
            @Parameter(description = "How long to wait at most, e.g. 30s or 500ms (at most 60s); absent: answer now",
                    example = "30s")
            @RequestParam(required = false) String wait) {
        RealizationStatus now = realizations.status(hostId)
                .orElseThrow(() -> new NotFoundException("No host with id " + hostId));
        long awaited = generation == null ? now.desiredGeneration() : generation;
        if (awaited < 1 || awaited > now.desiredGeneration()) {
            throw new InvalidRequestException("generation", "must be between 1 and the host's desired generation "
                    + now.desiredGeneration() + ": a write's EDP-Generation header names the one it produced");
        }
        if (wait == null) {
            var result = new DeferredResult<RealizationStatus>();
            result.setResult(now);
            return result;
        }
        return waits.await(hostId, awaited, LongPollWait.parse(wait, MAX_WAIT));
    }

    @GetMapping(path = "/api/v1/realization", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "listRealization", summary = "List every host's realization status",
            description = "By host id.")
    PageResponse<RealizationStatus> list(@ParameterObject @Valid PageParams paging) {
        return PageResponse.of(realizations.page(paging.toPageable(Set.of("hostId"), "hostId")));
    }
}
