package io.edp.manager.realization;

import java.util.Set;
import java.util.UUID;

import io.edp.manager.api.NotFoundException;
import io.edp.manager.api.PageParams;
import io.edp.manager.api.PageResponse;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "Realization", description = "Whether each host's engine runs its desired state")
class RealizationController {

    private final RealizationRepository realizations;

    RealizationController(RealizationRepository realizations) {
        this.realizations = realizations;
    }

    @GetMapping(path = "/api/v1/hosts/{hostId}/realization", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getRealization", summary = "Get a host's realization status",
            description = "One primary-key read: cheap enough to poll (e.g. an Ansible until: loop on "
                    + "realizedGeneration >= the generation of your change and state == SUCCESS).")
    RealizationStatus get(@PathVariable UUID hostId) {
        return realizations.status(hostId).orElseThrow(() -> new NotFoundException("No host with id " + hostId));
    }

    @GetMapping(path = "/api/v1/realization", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "listRealization", summary = "List every host's realization status",
            description = "By host id.")
    PageResponse<RealizationStatus> list(@ParameterObject @Valid PageParams paging) {
        return PageResponse.of(realizations.page(paging.toPageable(Set.of("hostId"), "hostId")));
    }
}
