package io.edp.manager.firewall;

import java.util.List;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** A distributed-firewall rule as clients create or replace it. */
@Schema(description = "A distributed-firewall rule; rules are evaluated by ascending priority (then id), first match "
        + "decides, for the first packet of a connection")
public record FirewallRuleRequest(
        @Schema(description = "Unique name of the rule (409 on a duplicate)", example = "block-telnet")
        @NotBlank @Size(max = 80) String name,
        @Schema(description = "Evaluation order: lower first", example = "100") @NotNull @Min(0) Integer priority,
        @Schema(description = "Source CIDR (IPv4 or IPv6), a bare address, or any", example = "10.0.0.0/8")
        @NotBlank @Size(max = 50) String source,
        @Schema(description = "Destination CIDR (IPv4 or IPv6), a bare address, or any", example = "any")
        @NotBlank @Size(max = 50) String destination,
        @Schema(description = "IP protocol matched (case does not matter; stored upper case); ports need TCP or UDP",
                allowableValues = {"ANY", "ICMP", "TCP", "UDP", "ICMPV6"}, example = "TCP")
        @NotBlank @Size(min = 1, max = 16) String protocol,
        @Schema(description = "TCP/UDP source ports: a port or a range from-to; left out: any", example = "1024-65535")
        @Size(max = 11) String sourcePorts,
        @Schema(description = "TCP/UDP destination ports: a port or a range from-to; left out: any", example = "23")
        @Size(max = 11) String destinationPorts,
        @Schema(description = "What a match does (case does not matter; stored upper case): ALLOW; DROP silently; "
                + "REJECT with a TCP RST or ICMP unreachable", allowableValues = {"ALLOW", "DROP", "REJECT"},
                example = "DROP")
        @NotBlank @Size(min = 1, max = 16) String action,
        @ArraySchema(arraySchema = @Schema(description = "Where the rule applies: virtual NIC MACs or physical NIC "
                + "names, at most 1,024; left out or empty: everywhere. On a host with none of them the rule is not "
                + "installed"), maxItems = 1024,
                schema = @Schema(example = "00:50:56:aa:bb:01"))
        @Size(max = 1024) List<@NotBlank @Size(max = 63) String> appliedTo,
        @Schema(description = "Write a packet-log line for each connection the rule starts and for its end, and "
                + "for each packet it drops (when the host's dfwLogging is enabled)", defaultValue = "false",
                example = "true")
        Boolean log) {
}
