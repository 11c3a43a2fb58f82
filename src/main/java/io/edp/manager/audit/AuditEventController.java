package io.edp.manager.audit;

import java.util.Set;

import io.edp.manager.api.PageParams;
import io.edp.manager.api.PageResponse;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

// reading is for operators too: the contract's conventions list 403 for writes only
@ApiResponse(responseCode = "403", description = "The account is not an operator", content = @Content(
        mediaType = "application/problem+json", schema = @Schema(ref = "#/components/schemas/Problem")))
@RestController
@RequestMapping(path = "/api/v1/audit-events", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Audit trail", description = "Every write request, who made it and how it ended; operators only")
class AuditEventController {

    private final AuditTrail trail;

    AuditEventController(AuditTrail trail) {
        this.trail = trail;
    }

    @GetMapping
    @Operation(operationId = "listAuditEvents", summary = "List audit events",
            description = "In the order they were appended (sortable by id: `sort=id,desc` for the newest first). "
                    + "Kept for `edp.audit.retention` (90 days by default).")
    PageResponse<AuditEvent> list(@ParameterObject @Valid AuditEventQuery query,
                                  @ParameterObject @Valid PageParams paging) {
        return PageResponse.of(trail.page(query, paging.toPageable(Set.of("id"), "id")));
    }
}
