package io.edp.engine.packet;

/**
 * Why a frame did not leave. Counters are {@code long[]} indexed by {@link #ordinal()}, one array per worker,
 * so counting a drop is an array increment; snapshots name them.
 */
public enum DropReason {
    // the parser
    TRUNCATED_ETHERNET,
    TRUNCATED_VLAN,
    TOO_MANY_VLAN_TAGS,
    UNSUPPORTED_ETHERTYPE,
    TRUNCATED_ARP,
    TRUNCATED_IPV4,
    BAD_IPV4_HEADER,
    BAD_IPV4_LENGTH,
    TRUNCATED_IPV6,
    BAD_IPV6_HEADER,
    BAD_IPV6_LENGTH,
    IPV6_EXTENSION_LIMIT,
    TRUNCATED_L4,
    BAD_TCP_HEADER,
    // the IOChain
    NO_DESTINATION,
    HAIRPIN,
    FIREWALL_DROP,
    FIREWALL_REJECT,
    CONNTRACK_FULL,
    NO_ROUTE,
    TTL_EXCEEDED,
    ACTION_TABLE_FULL,
    /** A later IP fragment whose datagram's first fragment this worker has no decision for (not seen, timed out). */
    FRAGMENT_WITHOUT_FIRST,
    /** A frame for the router itself (ARP, neighbor solicitation, echo to a gateway address): it goes no further. */
    TO_ROUTER,
    /** An IP packet larger than its egress port's MTU (routed: answered with fragmentation needed / too big). */
    MTU_EXCEEDED,
    /** A broadcast or multicast frame beyond its worker's storm-control rate ({@link io.edp.engine.StormControl}). */
    STORM_CONTROL,
    // transmit and the worker itself
    PORT_DOWN,
    TX_QUEUE_FULL,
    WORKER_EXCEPTION;

    private static final DropReason[] VALUES = values();

    public static DropReason of(int ordinal) {
        return VALUES[ordinal];
    }

    public static int count() {
        return VALUES.length;
    }
}
