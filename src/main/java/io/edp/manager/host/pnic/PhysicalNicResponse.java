package io.edp.manager.host.pnic;

import java.util.UUID;

import io.edp.manager.api.Versioned;
import io.edp.manager.host.EnginePort;
import io.edp.manager.host.PortMtu;
import io.swagger.v3.oas.annotations.media.Schema;

/** A physical NIC as the API shows it. */
@Schema(description = "A physical NIC of a host")
public record PhysicalNicResponse(
        @Schema(description = "Id of the NIC", example = "5d0c4a7e-8f4b-4a39-9d53-0d0d7d6c2f10") UUID id,
        @Schema(description = "Id of its host", example = "0b7e6f7a-3c55-4f0e-9f3e-52d9c1a4e2b1") UUID hostId,
        @Schema(description = "Name, unique on the host", example = "vmnic0") String name,
        @Schema(description = "NUMA node", example = "0") int numaNode,
        @Schema(description = "Link speed in Mbit/s", example = "25000") int speedMbps,
        @Schema(description = "Number of receive queues", example = "4") int rxQueues,
        @Schema(description = "Receive-side scaling on or off", example = "true") boolean rss,
        @Schema(description = "The NIC's driver, chosen by `kind`, with its settings") DriverSettings driver,
        @Schema(description = PortMtu.DESCRIPTION, example = "1500") int mtu,
        @Schema(description = EnginePort.DESCRIPTION, example = "0", accessMode = Schema.AccessMode.READ_ONLY)
        int enginePort,
        @Schema(description = "Version of the resource, also sent as its ETag; 0 when created", example = "0")
        long version)
        implements Versioned {

    static PhysicalNicResponse of(PhysicalNic nic) {
        var request = nic.toRequest();
        return new PhysicalNicResponse(nic.id(), nic.hostId(), request.name(), request.numaNode(),
                request.speedMbps(), request.rxQueues(), request.rss(), request.driver(), request.mtu(),
                nic.enginePort(), nic.version());
    }
}
