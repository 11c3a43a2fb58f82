package io.edp.engine.nic;

import java.util.Map;

/**
 * A port of the engine: an id (0..1023, what flow keys, vNICs and routes refer to), a name, its NUMA node, its
 * queue counts and the driver that backs it ({@code driver} names a {@link NicDriverFactory} registered in
 * {@link NicDrivers}; {@code driverOptions} are that driver's settings, e.g. {@code interface=eth1}), and its
 * MTU: the largest IP packet it sends (a routed packet over it gets ICMP fragmentation needed / packet too big).
 * The MTU is the one setting of a running port that {@code apply} may change.
 */
public record PortConfig(int id, String name, int numaNode, int rxQueues, int txQueues, String driver,
        Map<String, String> driverOptions, int mtu) {

    public static final int MAX_PORT_ID = 1023;
    public static final int DEFAULT_MTU = 1500;
    /** IPv4's minimum (RFC 791) .. a jumbo frame's. */
    public static final int MIN_MTU = 68;
    public static final int MAX_MTU = 9216;

    public PortConfig {
        String at = "ports[id=" + id + "]";
        if (id < 0 || id > MAX_PORT_ID) {
            throw new IllegalArgumentException(at + ".id must be 0.." + MAX_PORT_ID + ": " + id);
        }
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(at + ".name is required");
        }
        if (numaNode < 0) {
            throw new IllegalArgumentException(at + ".numaNode must be >= 0: " + numaNode);
        }
        if (rxQueues < 1 || rxQueues > 64 || txQueues < 1 || txQueues > 64) {
            throw new IllegalArgumentException(at + ".rxQueues and .txQueues must be 1..64: " + rxQueues + ", "
                    + txQueues);
        }
        if (driver == null || driver.isBlank()) {
            throw new IllegalArgumentException(at + ".driver is required (e.g. loopback)");
        }
        driverOptions = driverOptions == null ? Map.of() : Map.copyOf(driverOptions);
        if (mtu < MIN_MTU || mtu > MAX_MTU) {
            throw new IllegalArgumentException(at + ".mtu must be " + MIN_MTU + ".." + MAX_MTU + ": " + mtu);
        }
    }

    /** A port of the default MTU ({@value #DEFAULT_MTU}). */
    public PortConfig(int id, String name, int numaNode, int rxQueues, int txQueues, String driver,
            Map<String, String> driverOptions) {
        this(id, name, numaNode, rxQueues, txQueues, driver, driverOptions, DEFAULT_MTU);
    }

    public PortConfig withMtu(int value) {
        return new PortConfig(id, name, numaNode, rxQueues, txQueues, driver, driverOptions, value);
    }

    /** A loopback port with default ring and sink sizes. */
    public static PortConfig loopback(int id, String name, int numaNode, int rxQueues, int txQueues) {
        return new PortConfig(id, name, numaNode, rxQueues, txQueues, "loopback", Map.of());
    }
}
