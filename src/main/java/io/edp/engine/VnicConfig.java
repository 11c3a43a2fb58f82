package io.edp.engine;

import io.edp.engine.nic.VnicAddress;
import io.edp.engine.slowpath.MacAddress;
import java.util.Objects;

/** A VM's virtual NIC, attached to engine port {@code port}: its MAC on its VLAN (0: untagged) is switched there. */
public record VnicConfig(String name, String vm, int port, String mac, int vlan, AdapterType adapter) {

    public VnicConfig {
        String at = "vnics[" + name + "]";
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("vnics[].name is required");
        }
        if ((MacAddress.parse(mac, at + ".mac") >>> 40 & 1) != 0) {
            throw new IllegalArgumentException(at + ".mac must be a unicast address: " + mac);
        }
        if (vlan < 0 || vlan > 4094) {
            throw new IllegalArgumentException(at + ".vlan must be 0..4094: " + vlan);
        }
        Objects.requireNonNull(adapter, at + ".adapter");
        vm = vm == null ? "" : vm;
    }

    /** The vNIC as a NIC sees it (MAC on VLAN), what NetQueue filters match. */
    public VnicAddress address() {
        return new VnicAddress(MacAddress.parse(mac, "mac"), vlan);
    }
}
