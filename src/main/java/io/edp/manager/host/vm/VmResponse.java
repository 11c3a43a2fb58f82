package io.edp.manager.host.vm;

import java.util.UUID;

import io.edp.manager.api.Versioned;
import io.swagger.v3.oas.annotations.media.Schema;

/** A VM as the API shows it. */
@Schema(description = "A VM on a host")
public record VmResponse(
        @Schema(description = "Id of the VM", example = "9a1f6d0e-2b7c-4e8a-a1d4-3f5e6b7c8d90") UUID id,
        @Schema(description = "Id of its host", example = "0b7e6f7a-3c55-4f0e-9f3e-52d9c1a4e2b1") UUID hostId,
        @Schema(description = "Name, unique on the host", example = "web-01") String name,
        @Schema(description = "Number of virtual CPUs", example = "4") int vcpus,
        @Schema(description = "NUMA node", example = "0") int numaNode,
        @Schema(description = "Version of the resource, also sent as its ETag; 0 when created", example = "0")
        long version)
        implements Versioned {

    static VmResponse of(Vm vm) {
        var request = vm.toRequest();
        return new VmResponse(vm.id(), vm.hostId(), request.name(), request.vcpus(), request.numaNode(), vm.version());
    }
}
