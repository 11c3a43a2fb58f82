package io.edp.manager.account;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** A named account as an operator creates it. */
@Schema(description = "A named account; the password is stored as a BCrypt hash and never returned")
public record AccountRequest(
        @Schema(description = "Lower-case letters, digits and . _ @ -; must not be a bootstrap account's name",
                example = "alice")
        @NotBlank @Size(max = 63) @Pattern(regexp = AccountRequest.NAME, message = AccountRequest.NAME_RULE)
        String name,
        @Schema(description = "OPERATOR may do everything, VIEWER may only read", example = "OPERATOR")
        @NotNull Role role,
        @Schema(description = "12 to 72 characters (BCrypt reads at most 72 bytes)", example = "correct-horse-battery",
                accessMode = Schema.AccessMode.WRITE_ONLY)
        @NotNull @Size(min = AccountRequest.MIN_PASSWORD, max = AccountRequest.MAX_PASSWORD_BYTES) String password) {

    static final String NAME = "[a-z0-9][a-z0-9._@-]*";
    static final String NAME_RULE = "must start with a lower-case letter or digit and hold only a-z 0-9 . _ @ -";
    static final int MIN_PASSWORD = 12;
    static final int MAX_PASSWORD_BYTES = 72;

    @Override
    public String toString() { // records print every component: keep the password out of logs
        return "AccountRequest[name=" + name + ", role=" + role + "]";
    }
}
