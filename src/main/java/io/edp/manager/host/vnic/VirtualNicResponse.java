package io.edp.manager.host.vnic;

import java.util.UUID;

import io.edp.manager.api.Versioned;
import io.edp.manager.host.EnginePort;
import io.edp.manager.host.PortMtu;
import io.edp.manager.host.vm.Vm;
import io.swagger.v3.oas.annotations.media.Schema;

/** A virtual NIC as the API shows it. */
@Schema(description = "A virtual NIC of a VM")
public record VirtualNicResponse(
        @Schema(description = "Id of the virtual NIC", example = "c3d2e1f0-1a2b-4c3d-8e9f-0a1b2c3d4e5f") UUID id,
        @Schema(description = "Id of its VM", example = "9a1f6d0e-2b7c-4e8a-a1d4-3f5e6b7c8d90") UUID vmId,
        @Schema(description = "MAC address, lower case", example = "00:50:56:aa:bb:01") String mac,
        @Schema(description = "VLAN id; 0 means untagged", example = "100") int vlan,
        @Schema(example = "VMXNET3") AdapterType adapterType,
        @Schema(description = "Number of receive queues", example = "2") int rxQueues,
        @Schema(description = PortMtu.DESCRIPTION, example = "1500") int mtu,
        @Schema(description = EnginePort.DESCRIPTION, example = "2", accessMode = Schema.AccessMode.READ_ONLY)
        int enginePort,
        @Schema(description = EnginePort.VNIC_NAME_DESCRIPTION, example = "web-eth1",
                accessMode = Schema.AccessMode.READ_ONLY) String enginePortName,
        @Schema(description = "Version of the resource, also sent as its ETag; 0 when created", example = "0")
        long version)
        implements Versioned {

    static VirtualNicResponse of(VirtualNic nic, Vm vm) {
        var request = nic.toRequest();
        return new VirtualNicResponse(nic.id(), nic.vmId(), request.mac(), request.vlan(), request.adapterType(),
                request.rxQueues(), request.mtu(), nic.enginePort(), EnginePort.vnicName(vm.name(), nic.portIndex()),
                nic.version());
    }
}
