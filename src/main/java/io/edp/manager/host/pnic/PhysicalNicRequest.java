package io.edp.manager.host.pnic;

import io.edp.manager.host.PortMtu;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** What a client sends to create or replace a physical NIC. */
@Schema(description = "A physical NIC as clients create or replace it")
public record PhysicalNicRequest(
        @Schema(description = "Name, unique on the host", example = "vmnic0")
        @NotBlank @Size(max = 63) @Pattern(regexp = "[A-Za-z0-9][A-Za-z0-9._-]*",
                message = "must be letters, digits, '.', '_' or '-'") String name,
        @Schema(description = "NUMA node the NIC is attached to; must exist on the host", example = "0")
        @NotNull @Min(0) Integer numaNode,
        @Schema(description = "Link speed in Mbit/s", example = "25000")
        @NotNull @Min(1) @Max(800_000) Integer speedMbps,
        @Schema(description = "Number of receive queues", example = "4")
        @NotNull @Min(1) @Max(64) Integer rxQueues,
        @Schema(description = "Whether receive-side scaling spreads flows over the queues", example = "true")
        @NotNull Boolean rss,
        @Schema(description = "How the engine reaches the NIC's packets: `kind` chooses the driver and the other "
                + "fields it takes", example = "{\"kind\": \"loopback\"}")
        @NotNull @Valid DriverSettings driver,
        @Schema(description = PortMtu.DESCRIPTION, defaultValue = "1500", example = "9000", minimum = "1280",
                maximum = "9216")
        @Min(PortMtu.MIN) @Max(PortMtu.MAX) Integer mtu) {

    /** The MTU asked for, or the default. */
    int mtuOrDefault() {
        return PortMtu.orDefault(mtu);
    }
}
