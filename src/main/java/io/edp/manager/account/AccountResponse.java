package io.edp.manager.account;

import java.time.Instant;

import io.edp.manager.api.Versioned;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A named account (never its password)")
public record AccountResponse(
        @Schema(example = "alice") String name,
        @Schema(example = "OPERATOR") Role role,
        @Schema(description = "Whether the account can log in", example = "true") boolean enabled,
        @Schema(description = "When the account was created") Instant createdAt,
        @Schema(description = "Version of the resource, also sent as its ETag", example = "0") long version)
        implements Versioned {
}
