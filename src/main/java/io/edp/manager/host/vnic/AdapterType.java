package io.edp.manager.host.vnic;

import io.swagger.v3.oas.annotations.media.Schema;

/** The virtual NIC's emulated hardware. Only VMXNET3 ports take the engine's fast path. */
@Schema(description = "Emulated adapter: VMXNET3 (paravirtual, fast path) or E1000 (emulated, always slow path)")
public enum AdapterType {
    VMXNET3,
    E1000
}
