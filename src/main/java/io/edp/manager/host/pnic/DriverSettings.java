package io.edp.manager.host.pnic;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.swagger.v3.oas.annotations.media.DiscriminatorMapping;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** How the engine reaches a physical NIC's packets: the driver kind and the settings that kind needs. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
        @JsonSubTypes.Type(value = DriverSettings.Loopback.class, name = DriverSettings.LOOPBACK),
        @JsonSubTypes.Type(value = DriverSettings.AfPacket.class, name = DriverSettings.AF_PACKET),
        @JsonSubTypes.Type(value = DriverSettings.Pcap.class, name = DriverSettings.PCAP)})
@Schema(description = "The NIC driver, chosen by `kind`, with the settings of that kind",
        discriminatorProperty = "kind",
        oneOf = {DriverSettings.Loopback.class, DriverSettings.AfPacket.class, DriverSettings.Pcap.class},
        discriminatorMapping = {
                @DiscriminatorMapping(value = DriverSettings.LOOPBACK, schema = DriverSettings.Loopback.class),
                @DiscriminatorMapping(value = DriverSettings.AF_PACKET, schema = DriverSettings.AfPacket.class),
                @DiscriminatorMapping(value = DriverSettings.PCAP, schema = DriverSettings.Pcap.class)})
public sealed interface DriverSettings {

    String LOOPBACK = "loopback";
    String AF_PACKET = "af_packet";
    String PCAP = "pcap";

    /** An in-memory NIC with a built-in traffic generator; needs no settings. */
    @Schema(name = "LoopbackDriver", description = "In-memory NIC with a built-in traffic generator")
    record Loopback() implements DriverSettings {
    }

    /** A real Linux interface, through PACKET_MMAP rings. */
    @Schema(name = "AfPacketDriver", description = "A Linux network interface, read and written with AF_PACKET")
    record AfPacket(
            @Schema(description = "Linux interface name; must be listed in edp.engines.af-packet-interfaces",
                    example = "veth0")
            @NotBlank @Size(max = 15) @Pattern(regexp = "[^/\\s]+", message = "must not contain '/' or spaces")
            String interfaceName) implements DriverSettings {
    }

    /** Replays a capture file into the engine and writes what the engine transmits to another. */
    @Schema(name = "PcapDriver", description = "Replays a capture file; writes what is transmitted to another file")
    record Pcap(
            @Schema(description = "Capture file to replay, inside the pcap directory (edp.engines.pcap-dir): "
                    + "relative to it, or absolute", example = "in.pcap")
            @NotBlank @Size(max = 4096) String inputFile,
            @Schema(description = "Capture file to write, inside the pcap directory; a file that exists is "
                    + "refused unless this NIC wrote it", example = "out.pcap")
            @NotBlank @Size(max = 4096) String outputFile) implements DriverSettings {
    }
}
