package io.edp.manager.audit;

import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "One write request: who, when, what, and how it ended")
public record AuditEvent(
        @Schema(description = "Increases in the order events were appended", example = "42") long id,
        @Schema(description = "When the write's transaction started") Instant occurredAt,
        @Schema(description = "The account that made the request", example = "alice") String user,
        @Schema(example = "PUT") String method,
        @Schema(description = "The request path", example = "/api/v1/firewall/rules/7") String path,
        @Schema(description = "The resource written: for a create, the new resource's path",
                example = "/api/v1/firewall/rules/7") String resource,
        @Schema(description = "The resource's ETag before the write; absent for a create", example = "\"3\"")
        String etagBefore,
        @Schema(description = "Its ETag after the write; absent for a delete or a failed write", example = "\"4\"")
        String etagAfter,
        @Schema(description = "The HTTP status answered", example = "200") int status,
        @Schema(description = "SUCCEEDED for a 2xx status, else FAILED (nothing was changed)") Outcome outcome,
        @Schema(description = "Whether the request was a dry run that changed nothing", example = "false")
        boolean dryRun) {

    public enum Outcome {
        SUCCEEDED,
        FAILED;

        static Outcome of(int status) {
            return status >= 200 && status < 300 ? SUCCEEDED : FAILED;
        }
    }
}
