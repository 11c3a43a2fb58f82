package io.edp.manager.capture;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

@Schema(description = "A live capture of what one port of a host's engine receives or transmits")
public record CaptureRequest(
        @Schema(description = "A physical NIC's name, a virtual NIC's MAC or its port name", example = "vmnic0")
        @NotBlank @Size(max = 63) String port,
        @Schema(description = "RX: frames the port receives, before the pipeline; TX: frames it transmits, after "
                + "the rewrite; BOTH (the default)", example = "BOTH") Direction direction,
        @Schema(description = "Which frames are kept; left out: every frame") @Valid Filter filter,
        @Schema(description = "Frames to capture, then the capture ends; default " + DEFAULT_MAX_PACKETS,
                example = "1000") @Min(1) @Max(MAX_PACKETS) Long maxPackets,
        @Schema(description = "Seconds to capture, then the capture ends; default " + DEFAULT_DURATION_SECONDS,
                example = "60") @Min(1) @Max(MAX_DURATION_SECONDS) Integer durationSeconds,
        @Schema(description = "Bytes kept of each frame; default " + MAX_SNAPLEN + " (whole frames)",
                example = "2048") @Min(MIN_SNAPLEN) @Max(MAX_SNAPLEN) Integer snaplen,
        @Schema(description = "A file stamped in nanoseconds instead of microseconds (default false)")
        Boolean nanosecondTimestamps,
        @Schema(description = "PCAP (the default): a classic pcap file, as tcpdump -w writes; PCAPNG: a pcapng file, "
                + "as dumpcap and Wireshark write, whose packets are each marked inbound or outbound (tshark's "
                + "frame.packet_flags_direction) and whose interface is named after the port", example = "PCAPNG")
        Format format) {

    static final long DEFAULT_MAX_PACKETS = 1_000;
    static final long MAX_PACKETS = 1_000_000;
    static final int DEFAULT_DURATION_SECONDS = 60;
    static final int MAX_DURATION_SECONDS = 3_600;
    static final int MIN_SNAPLEN = 64;
    static final int MAX_SNAPLEN = 2_048;

    public enum Direction {
        RX, TX, BOTH
    }

    public enum Format {
        PCAP, PCAPNG
    }

    @Schema(name = "CaptureFilter",
            description = "Frames kept: every given part must hold (tcpdump's `(net A or net B) and (port P or "
                    + "port Q) and proto X`); an address matches the source or the destination, a port the TCP, "
                    + "UDP or SCTP source or destination port; a frame that is not IP passes only an empty filter")
    public record Filter(
            @Schema(description = "Addresses or prefixes, IPv4 or IPv6", example = "[\"10.0.0.7\", \"10.1.0.0/16\"]")
            @Size(max = 16) List<@NotNull @Size(max = 43) String> addresses,
            @Schema(description = "TCP, UDP or SCTP ports", example = "[53]")
            @Size(max = 16) List<@NotNull @Min(0) @Max(65_535) Integer> ports,
            @Schema(description = "tcp, udp, icmp, icmpv6, sctp or an IP protocol number", example = "udp")
            @Size(max = 6) @Pattern(regexp = "tcp|udp|icmp|icmpv6|sctp|[0-9]{1,3}",
                    message = "must be tcp, udp, icmp, icmpv6, sctp or a protocol number") String protocol) {
    }
}
