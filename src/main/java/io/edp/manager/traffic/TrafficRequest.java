package io.edp.manager.traffic;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * A traffic profile for a loopback physical NIC: flow i goes from {@code sourceBase + i} to
 * {@code destinationBase + (i % destinations) * 256 + 1}, carrying a per-flow sequence number the sinks check.
 */
@Schema(description = "Traffic to send into a host's engine from one of its loopback physical NICs")
public record TrafficRequest(
        @Schema(description = "Name of the loopback physical NIC the frames arrive on", example = "vmnic0")
        @NotBlank @Size(min = 1, max = 63) String nic,
        @Schema(description = "Number of flows, sent round robin", example = "10000")
        @NotNull @Min(1) @Max(1_000_000) Integer flows,
        @Schema(description = "Frame size in bytes", defaultValue = "64", example = "64")
        @Min(60) @Max(1518) Integer frameBytes,
        @Schema(description = "Packets per second; 0: as fast as the engine takes them", defaultValue = "0",
                example = "0")
        @Min(0) Long packetsPerSecond,
        @Schema(description = "Percent of flows that are UDP; TCP takes tcpPercent, ICMP the rest",
                defaultValue = "100", example = "100")
        @Min(0) @Max(100) Integer udpPercent,
        @Schema(description = "Percent of flows that are TCP", defaultValue = "0", example = "0")
        @Min(0) @Max(100) Integer tcpPercent,
        @Schema(description = "Percent of flows over IPv6", defaultValue = "0", example = "0")
        @Min(0) @Max(100) Integer ipv6Percent,
        @Schema(description = "Stop after this many packets; 0: no limit", defaultValue = "0", example = "0")
        @Min(0) Long packets,
        @Schema(description = "Stop after this many seconds; left out: no limit", example = "10")
        @Min(1) @Max(86_400) Integer durationSeconds,
        @Schema(description = "Destination MAC: a VM's virtual NIC (switched) or the router MAC 02:ed:00:00:00:01 "
                + "(routed)", example = "00:50:56:aa:bb:01")
        @NotNull @Size(max = 17)
        @Pattern(regexp = "[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}", message = "must be a MAC address")
        String destinationMac,
        @Schema(description = "VLAN tag of the frames; 0: untagged", defaultValue = "0", example = "0")
        @Min(0) @Max(4094) Integer vlan,
        @Schema(description = "First source IPv4 address", defaultValue = "10.0.0.0", example = "10.0.0.0")
        @Size(max = 15) String sourceBase,
        @Schema(description = "First destination IPv4 address", defaultValue = "10.128.0.0",
                example = "10.128.0.0")
        @Size(max = 15) String destinationBase,
        @Schema(description = "Number of destination /24s the flows spread over", defaultValue = "1", example = "1")
        @Min(1) @Max(65_536) Integer destinations) {
}
