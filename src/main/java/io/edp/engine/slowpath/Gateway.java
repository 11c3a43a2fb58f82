package io.edp.engine.slowpath;

/**
 * The router's own addresses on one routed segment (VLAN): the engine answers ARP for {@code ipv4} and neighbor
 * solicitations for {@code ipv6} on that segment, ICMP echo to either from anywhere, and sends ICMP errors from
 * them. Either address may be null, not both.
 */
public record Gateway(int vlan, String ipv4, String ipv6) {

    public Gateway {
        String field = "gateways[vlan=" + vlan + "]";
        if (vlan < 0 || vlan > 4095) {
            throw new IllegalArgumentException(field + ".vlan must be 0..4095: " + vlan);
        }
        if (ipv4 == null && ipv6 == null) {
            throw new IllegalArgumentException(field + ": an ipv4 or ipv6 address is required");
        }
        if (ipv4 != null) {
            address(ipv4, 4, field + ".ipv4");
        }
        if (ipv6 != null) {
            address(ipv6, 6, field + ".ipv6");
        }
    }

    /** The IPv4 address in the flow key's form (top 32 bits of hi), 0 when there is none. */
    public long ipv4Hi() {
        return ipv4 == null ? 0 : address(ipv4, 4, "ipv4").hi();
    }

    /** The IPv6 address as a host prefix, null when there is none. */
    public Cidr ipv6Address() {
        return ipv6 == null ? null : address(ipv6, 6, "ipv6");
    }

    private static Cidr address(String text, int version, String field) {
        if (text.indexOf('/') >= 0) {
            throw new IllegalArgumentException(field + ": an address without a prefix length: " + text);
        }
        Cidr c = Cidr.parse(text, field);
        if (c.version() != version) {
            throw new IllegalArgumentException(field + ": not an IPv" + version + " address: " + text);
        }
        if (version == 4
                ? c.hi() == 0 || (c.hi() >>> 60) >= 0xE
                : (c.hi() >>> 56) == 0xFF || c.hi() == 0 && c.lo() == 0) {
            throw new IllegalArgumentException(field + ": not a unicast address: " + text);
        }
        return c;
    }
}
