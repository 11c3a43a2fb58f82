package io.edp.manager.edp;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Size;

/** The desired EDP configuration of one host: an optional profile, and the host's own settings over it. */
@Schema(description = "A host's EDP configuration: a profile (optional) and the settings the host overrides")
public record HostEdpRequest(
        @Schema(description = "Name of the EDP profile the host follows; null or left out: none", example = "edp-gold")
        @Size(max = 63) String profile,
        @Schema(description = "The host's own settings: each field set here wins over the profile's")
        @Valid EdpSettings settings) {

    EdpSettings settingsOrNone() {
        return settings == null ? EdpSettings.NONE : settings;
    }
}
