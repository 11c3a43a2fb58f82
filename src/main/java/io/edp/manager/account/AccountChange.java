package io.edp.manager.account;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * What a merge patch of an account may change. It is merged into {@code {role, enabled}}: a password given is set,
 * one left out keeps the current one.
 */
@Schema(description = "The changeable part of an account, as a JSON Merge Patch applies to it")
public record AccountChange(
        @Schema(example = "VIEWER") @NotNull Role role,
        @Schema(description = "A disabled account cannot log in (from its next request on)", example = "false")
        @NotNull Boolean enabled,
        @Schema(description = "A new password, 12 to 72 characters; left out: unchanged",
                accessMode = Schema.AccessMode.WRITE_ONLY)
        @Size(min = AccountRequest.MIN_PASSWORD, max = AccountRequest.MAX_PASSWORD_BYTES) String password) {

    @Override
    public String toString() {
        return "AccountChange[role=" + role + ", enabled=" + enabled + "]";
    }
}
