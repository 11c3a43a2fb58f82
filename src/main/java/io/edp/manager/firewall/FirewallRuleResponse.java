package io.edp.manager.firewall;

import java.util.List;

import io.edp.engine.slowpath.PortRange;
import io.edp.manager.api.Versioned;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A distributed-firewall rule")
public record FirewallRuleResponse(
        @Schema(description = "Id of the rule", example = "1") long id,
        @Schema(description = "Unique name of the rule", example = "block-telnet") String name,
        @Schema(description = "Evaluation order: lower first", example = "100") int priority,
        @Schema(description = "Source CIDR, address or any, as sent", example = "10.0.0.0/8") String source,
        @Schema(description = "Destination CIDR, address or any, as sent", example = "any") String destination,
        @Schema(description = "IP protocol matched", example = "TCP") Protocol protocol,
        @Schema(description = "TCP/UDP source ports: a port or from-to; null: any", example = "1024-65535")
        String sourcePorts,
        @Schema(description = "TCP/UDP destination ports: a port or from-to; null: any", example = "23")
        String destinationPorts,
        @Schema(description = "What a match does", allowableValues = {"ALLOW", "DROP", "REJECT"}, example = "DROP")
        String action,
        @Schema(description = "Virtual NIC MACs or physical NIC names; empty: everywhere") List<String> appliedTo,
        @Schema(description = "Whether the rule's connections and drops are packet-logged", example = "true")
        boolean log,
        @Schema(description = "Version of the resource, also sent as its ETag", example = "0") long version)
        implements Versioned {

    /** The source ports as the engine matches them (any when not set). */
    public PortRange sourcePortRange() {
        return PortRanges.parse(sourcePorts);
    }

    public PortRange destinationPortRange() {
        return PortRanges.parse(destinationPorts);
    }
}
