package io.edp.manager.edp;

import io.edp.manager.api.Versioned;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "An EDP profile")
public record EdpProfileResponse(
        @Schema(description = "Unique name of the profile", example = "edp-gold") String name,
        @Schema(description = "Free text; null when none", example = "Web tier") String description,
        @Schema(description = "The settings the profile sets") EdpSettings settings,
        @Schema(description = "Hosts that reference the profile", example = "12") long hosts,
        @Schema(description = "Version of the resource, also sent as its ETag", example = "0") long version)
        implements Versioned {
}
