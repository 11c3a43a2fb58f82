package io.edp.manager.host;

import io.edp.engine.nic.PortConfig;

/**
 * The MTU of a host's NIC, physical or virtual: the largest IP packet the engine sends out of its port (a routed
 * packet over it is answered with ICMP fragmentation needed / ICMPv6 packet too big). At least IPv6's minimum link
 * MTU (RFC 8200), since any port may carry IPv6; at most a jumbo frame's.
 */
public final class PortMtu {

    public static final String DESCRIPTION = "Largest IP packet the engine sends out of this NIC, in bytes; a routed "
            + "packet over it is answered with ICMP fragmentation needed / ICMPv6 packet too big. At least 1,280 "
            + "(IPv6's minimum link MTU, RFC 8200), at most 9,216 (jumbo frames)";
    public static final int MIN = 1280;
    public static final int MAX = PortConfig.MAX_MTU;

    private PortMtu() {
    }

    /** {@code mtu}, or {@link PortConfig#DEFAULT_MTU} when a request leaves it out. */
    public static int orDefault(Integer mtu) {
        return mtu == null ? PortConfig.DEFAULT_MTU : mtu;
    }
}
