package io.edp.manager.stats;

import io.edp.engine.FlowStats;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A cached flow with its counters and action")
record FlowEntry(@Schema(description = "Worker whose flow cache holds it", example = "0") int worker,
                 @Schema(description = "The flow key", example = "port 0 vlan 0 udp 10.0.0.7:1031 -> 10.128.0.1:5001")
                 String flow,
                 @Schema(description = "Packets of the flow the cache counted", example = "12345") long packets,
                 @Schema(description = "Their bytes", example = "790080") long bytes,
                 @Schema(description = "The cached action, as the engine prints it", example = "output port 1")
                 String action) {

    static FlowEntry of(FlowStats flow) {
        return new FlowEntry(flow.worker(), flow.flow(), flow.packets(), flow.bytes(), flow.action());
    }
}
