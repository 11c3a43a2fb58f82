package io.edp.manager.audit;

import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** The filters of the audit-event list; each one left out matches everything. */
public record AuditEventQuery(
        @Schema(description = "Events at or after this instant (RFC 3339)", example = "2026-12-01T00:00:00Z")
        Instant from,
        @Schema(description = "Events before this instant (RFC 3339)", example = "2026-12-02T00:00:00Z")
        Instant to,
        @Schema(description = "Events of this account", example = "alice")
        @Size(max = 63) @Pattern(regexp = PRINTABLE, message = CONTROL) String user,
        @Schema(description = "Events on this resource path and everything below it", example = "/api/v1/hosts")
        @Size(max = 2048) @Pattern(regexp = PRINTABLE, message = CONTROL) String resource) {

    private static final String PRINTABLE = "\\P{Cntrl}*";
    private static final String CONTROL = "must not contain control characters";
}
