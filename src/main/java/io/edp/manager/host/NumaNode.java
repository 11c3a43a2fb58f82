package io.edp.manager.host;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** A NUMA node of a host and the ids of its CPU cores (on which the engine pins its workers). */
@Schema(description = "A NUMA node of the host and its CPU cores")
public record NumaNode(
        @Schema(description = "NUMA node id, as the operating system numbers it", example = "0")
        @NotNull @Min(0) @Max(63) Integer id,
        @Schema(description = "Ids of the CPU cores of this node", example = "[0, 1, 2, 3]")
        @NotNull @Size(min = 1, max = 4096) List<@NotNull @Min(0) @Max(4095) Integer> cpuCores) {
}
