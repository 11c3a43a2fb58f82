package io.edp.manager.trace;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * A packet to trace through a host's engine: its header fields (what is left out takes a default), or the whole
 * frame as {@code frameHex} (then no other field but {@code ingress}).
 */
@Schema(description = "A packet to trace: described by its fields (defaults for what is left out) or as frameHex",
        example = "{\"ingress\": \"vmnic0\", \"sourceIp\": \"10.0.0.1\", \"destinationIp\": \"10.128.0.1\", "
                + "\"protocol\": \"tcp\", \"destinationPort\": 80}")
public record TraceRequest(
        @Schema(description = "Where the packet enters: a physical NIC's name, or a virtual NIC's MAC or port name "
                + "(<vm>-eth<n>)", example = "vmnic0")
        @NotBlank @Size(max = 64) String ingress,
        @Schema(description = "The whole Ethernet frame (no FCS) in hex; excludes every field below",
                example = "02ed000000010200000000aa080045000032000000004011663a0a0000010a800001c0000035001e0000"
                        + "00000000000000000000000000000000000000000000")
        @Size(max = 2 * 1522) @Pattern(regexp = "([0-9A-Fa-f]{2})+", message = "must be hex digits, two per byte")
        String frameHex,
        @Schema(description = "Default: the virtual NIC's MAC when ingress is one, else 02:00:00:00:00:aa",
                example = "02:00:00:00:00:aa")
        @Size(max = 17) @Pattern(regexp = MAC, message = "must be a MAC address") String sourceMac,
        @Schema(description = "Default: the router's MAC, so the packet is routed", example = "02:ed:00:00:00:01")
        @Size(max = 17) @Pattern(regexp = MAC, message = "must be a MAC address") String destinationMac,
        @Schema(description = "802.1Q VLAN ids, outer first (two: QinQ); default none", example = "[10]")
        @Size(max = 2) List<@NotNull @Min(1) @Max(4094) Integer> vlans,
        @Schema(description = "IPv4 or IPv6 address; required without frameHex", example = "10.0.0.1")
        @Size(max = 45) String sourceIp,
        @Schema(description = "Same family as sourceIp; required without frameHex", example = "10.128.0.1")
        @Size(max = 45) String destinationIp,
        @Schema(description = "tcp, udp, icmp, icmpv6 or an IP protocol number; default icmp (an echo request; "
                + "icmp to an IPv6 address is ICMPv6)", defaultValue = "icmp", example = "tcp")
        @Size(max = 6) @Pattern(regexp = "tcp|udp|icmp|icmpv6|[0-9]{1,3}",
                message = "must be tcp, udp, icmp, icmpv6 or a protocol number") String protocol,
        @Schema(description = "TCP/UDP source port, or the ICMP echo identifier", defaultValue = "49152",
                example = "49152")
        @Min(0) @Max(65535) Integer sourcePort,
        @Schema(description = "TCP/UDP destination port", defaultValue = "80", example = "80")
        @Min(0) @Max(65535) Integer destinationPort,
        @Schema(description = "TCP flags; default [SYN], the first packet of a connection", example = "[\"SYN\"]")
        @Size(max = 6) List<@NotNull TcpFlag> tcpFlags,
        @Schema(description = "IPv4 TTL or IPv6 hop limit", defaultValue = "64", example = "64")
        @Min(0) @Max(255) Integer ttl,
        @Schema(description = "Frame length in bytes without FCS, padded with zeros, at least what the headers take",
                defaultValue = "64", example = "64")
        @Min(14) @Max(1522) Integer length) {

    static final String MAC = "[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}";

    /** The TCP flags a trace sets. */
    public enum TcpFlag {
        FIN(0x01), SYN(0x02), RST(0x04), PSH(0x08), ACK(0x10), URG(0x20);

        final int bit;

        TcpFlag(int bit) {
            this.bit = bit;
        }
    }

    /** Whether any field besides {@code ingress} and {@code frameHex} is given. */
    boolean hasFields() {
        return sourceMac != null || destinationMac != null || vlans != null || sourceIp != null
                || destinationIp != null || protocol != null || sourcePort != null || destinationPort != null
                || tcpFlags != null || ttl != null || length != null;
    }
}
