package io.edp.manager.host.vnic;

import java.util.Locale;

import io.edp.manager.host.PortMtu;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** What a client sends to create or replace a virtual NIC. */
@Schema(description = "A virtual NIC as clients create or replace it")
public record VirtualNicRequest(
        @Schema(description = "Unicast MAC address, unique on the host; stored in lower case",
                example = "00:50:56:aa:bb:01")
        @NotNull @Size(max = 17) @Pattern(regexp = "[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}",
                message = "must be a MAC address like 00:50:56:aa:bb:01") String mac,
        @Schema(description = "VLAN id; 0 means untagged", example = "100", minimum = "0", maximum = "4094")
        @NotNull @Min(0) @Max(4094) Integer vlan,
        @Schema(example = "VMXNET3")
        @NotNull AdapterType adapterType,
        @Schema(description = "Number of receive queues", example = "2")
        @NotNull @Min(1) @Max(64) Integer rxQueues,
        @Schema(description = PortMtu.DESCRIPTION, defaultValue = "1500", example = "1500", minimum = "1280",
                maximum = "9216")
        @Min(PortMtu.MIN) @Max(PortMtu.MAX) Integer mtu) {

    /** The MTU asked for, or the default. */
    int mtuOrDefault() {
        return PortMtu.orDefault(mtu);
    }

    String normalizedMac() {
        return mac.toLowerCase(Locale.ROOT);
    }

    /** A port's address must be unicast: the NIC steers frames to the VM's queue by destination MAC. */
    @AssertTrue(message = "must be a unicast MAC address (the lowest bit of the first octet is 0)")
    @Schema(hidden = true)
    boolean isMacUnicast() {
        return mac == null || !mac.matches("[0-9A-Fa-f]{2}.*") || (Integer.parseInt(mac.substring(0, 2), 16) & 1) == 0;
    }
}
