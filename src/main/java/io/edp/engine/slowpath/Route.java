package io.edp.engine.slowpath;

/**
 * A route of the distributed router: frames sent to the router MAC whose destination falls in {@code prefix}
 * leave on {@code port} towards {@code nextHopMac}, tagged with {@code vlan} on an uplink (0: untagged).
 */
public record Route(String prefix, String nextHopMac, int port, int vlan) {

    public Route {
        Cidr.parse(prefix, "route prefix");
        MacAddress.parse(nextHopMac, "route " + prefix + " nextHopMac");
        if (vlan < 0 || vlan > 4094) {
            throw new IllegalArgumentException("route " + prefix + " vlan must be 0..4094: " + vlan);
        }
    }
}
