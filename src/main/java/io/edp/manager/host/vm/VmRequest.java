package io.edp.manager.host.vm;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** What a client sends to create or replace a VM. */
@Schema(description = "A VM as clients create or replace it")
public record VmRequest(
        @Schema(description = "Name, unique on the host", example = "web-01")
        @NotBlank @Size(max = 80) String name,
        @Schema(description = "Number of virtual CPUs", example = "4")
        @NotNull @Min(1) @Max(256) Integer vcpus,
        @Schema(description = "NUMA node the VM runs on; must exist on the host", example = "0")
        @NotNull @Min(0) Integer numaNode) {
}
