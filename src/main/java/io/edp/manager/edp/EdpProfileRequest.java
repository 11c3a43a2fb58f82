package io.edp.manager.edp;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Size;

/** What a client sends to create (POST, with a name) or replace (PUT, name from the path) an EDP profile. */
@Schema(description = "A named EDP configuration that many hosts can reference, as an NSX transport node profile")
public record EdpProfileRequest(
        @Schema(description = "Unique name; ignored on PUT (the path names the profile)", example = "edp-gold")
        @Size(max = 63) String name,
        @Schema(description = "Free text", example = "Web tier: fast path, 4 workers on node 0")
        @Size(max = 255) String description,
        @Schema(description = "The profile's settings; fields left out take the defaults")
        @Valid EdpSettings settings) {

    EdpSettings settingsOrNone() {
        return settings == null ? EdpSettings.NONE : settings;
    }

    String descriptionOrEmpty() {
        return description == null ? "" : description;
    }
}
