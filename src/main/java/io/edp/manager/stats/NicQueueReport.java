package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "Ports and RX queues of a host's engine at one instant")
record NicQueueReport(
        @Schema(description = "When the snapshot was taken") Instant takenAt,
        List<Port> ports,
        List<Queue> queues) {

    @Schema(description = "A port: a physical NIC, or a VM's virtual NIC (named vm-ethN)")
    record Port(@Schema(example = "0") int port, @Schema(example = "vmnic0") String name,
                @Schema(example = "0") int numaNode, long rxPackets, long rxBytes, long txPackets, long txBytes) {
    }

    @Schema(description = "An RX queue and the worker that polls it")
    record Queue(@Schema(example = "0") int port, @Schema(example = "1") int queue, @Schema(example = "0") int numaNode,
                 @Schema(example = "0") int worker, long packets, long bytes, long busyNanos) {
    }
}
