package io.edp.manager.host;

import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** What a client sends to create or replace a host. */
@Schema(description = "A host as clients create or replace it")
public record HostRequest(
        @Schema(description = "Unique name of the host", example = "esx-01")
        @NotBlank @Size(max = 63) @Pattern(regexp = NAME, message = NAME_MESSAGE) String name,
        @Schema(description = "Address the manager uses to reach the host (IP address or DNS name)",
                example = "192.0.2.11")
        @NotBlank @Size(max = 255) @Pattern(regexp = "[A-Za-z0-9.:\\[\\]-]+",
                message = "must be an IP address or a DNS name") String managementAddress,
        @Schema(description = "Where the host's engine runs: EMBEDDED in the manager's process (pushed by its "
                + "reconciler), or AGENT on the host, run by `edp agent` with a token from "
                + "POST /api/v1/hosts/{id}/agent-token", defaultValue = "EMBEDDED", example = "EMBEDDED")
        Placement placement,
        @ArraySchema(arraySchema = @Schema(description = "NUMA nodes with their CPU cores; node ids are unique and "
                + "a CPU core belongs to one node only"))
        @NotNull @Size(min = 1, max = 64) @Valid List<@NotNull NumaNode> numaNodes,
        @Schema(description = "Free-form labels for automation, at most 64", maxProperties = 64,
                additionalPropertiesSchema = LabelValue.class,
                example = "{\"rack\": \"r12\", \"role\": \"edge\"}")
        @Size(max = 64) Map<@Pattern(regexp = NAME, message = "label names: " + NAME_MESSAGE) String,
                @NotNull @Size(max = 255) String> labels) {

    static final String NAME = "[A-Za-z0-9][A-Za-z0-9._-]{0,62}";
    static final String NAME_MESSAGE =
            "must be 1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit";

    /** The contract's schema of a label's value (the bound on the map's values does not reach it by itself). */
    @Schema(type = "string", maxLength = 255)
    private interface LabelValue {
    }

    Placement placementOrDefault() {
        return placement == null ? Placement.EMBEDDED : placement;
    }

    Map<String, String> labelsOrEmpty() {
        return labels == null ? Map.of() : labels;
    }
}
