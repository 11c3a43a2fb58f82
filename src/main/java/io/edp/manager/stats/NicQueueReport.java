package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "Ports and RX queues of a host's engine at one instant")
record NicQueueReport(
        @Schema(description = "When the snapshot was taken") Instant takenAt,
        @Schema(description = "The engine's ports, by port number") List<Port> ports,
        @Schema(description = "Every RX queue of every port") List<Queue> queues) {

    @Schema(description = "A port: a physical NIC, or a VM's virtual NIC (named vm-ethN)")
    record Port(@Schema(description = "Engine port number", example = "0") int port,
                @Schema(description = "The NIC's name in the inventory, or vm-ethN", example = "vmnic0") String name,
                @Schema(description = "NUMA node of the NIC", example = "0") int numaNode,
                @Schema(description = "Frames received on the port", example = "1000000") long rxPackets,
                @Schema(description = "Bytes received on the port", example = "64000000") long rxBytes,
                @Schema(description = "Frames transmitted out of the port", example = "999000") long txPackets,
                @Schema(description = "Bytes transmitted out of the port", example = "63936000") long txBytes) {
    }

    @Schema(description = "An RX queue and the worker that polls it")
    record Queue(@Schema(description = "Engine port number", example = "0") int port,
                 @Schema(description = "RX queue number on the port, from 0", example = "1") int queue,
                 @Schema(description = "NUMA node of the port", example = "0") int numaNode,
                 @Schema(description = "The worker that polls it now (the TLB may move it)", example = "0") int worker,
                 @Schema(description = "Frames read from the queue", example = "250000") long packets,
                 @Schema(description = "Bytes read from the queue", example = "16000000") long bytes,
                 @Schema(description = "Time its worker spent on its bursts, nanoseconds", example = "1200000000")
                 long busyNanos) {
    }
}
