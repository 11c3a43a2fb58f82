package io.edp.manager.firewall;

import java.util.List;

import io.edp.engine.slowpath.PortRange;
import io.edp.manager.api.Versioned;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A distributed-firewall rule")
public record FirewallRuleResponse(
        @Schema(description = "Id of the rule", example = "1") long id,
        @Schema(example = "block-telnet") String name,
        @Schema(example = "100") int priority,
        @Schema(example = "10.0.0.0/8") String source,
        @Schema(example = "any") String destination,
        @Schema(example = "TCP") Protocol protocol,
        @Schema(example = "1024-65535") String sourcePorts,
        @Schema(example = "23") String destinationPorts,
        @Schema(example = "DROP") String action,
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
