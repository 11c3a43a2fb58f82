package io.edp.engine.telemetry;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;

/**
 * IPFIX flow export of an engine: off ({@link #DISABLED}) when it has no collector. Ranges and defaults follow the
 * vSphere Distributed Switch's (the manager takes the timeouts in seconds; the engine takes milliseconds so a test
 * need not wait a minute).
 *
 * @param collectors          where every message goes (UDP)
 * @param observationDomainId the IPFIX observation domain of this host's messages, 0..2^32-1
 * @param activeTimeoutMillis a flow that lasts this long is exported, and counted afresh
 * @param idleTimeoutMillis   a flow without a packet for this long is exported
 * @param sampling            0: every packet is counted; N: one in N (packetDeltaCount then counts the sampled ones)
 * @param maxFlows            flows each worker's flow table (LEGACY, and packets the flow cache does not count)
 *                            tracks at once; power of two
 * @param mtu                 the largest IPFIX message, in bytes (the UDP payload)
 * @param templateRefreshMillis templates are sent again at least this often (RFC 7011 §8.4, over UDP)
 */
public record IpfixConfig(List<InetSocketAddress> collectors, long observationDomainId, int activeTimeoutMillis,
        int idleTimeoutMillis, int sampling, int maxFlows, int mtu, int templateRefreshMillis) {

    public static final int DEFAULT_ACTIVE_TIMEOUT_MILLIS = 60_000;
    public static final int DEFAULT_IDLE_TIMEOUT_MILLIS = 15_000;
    public static final int DEFAULT_MAX_FLOWS = 65_536;
    public static final int DEFAULT_MTU = 1_500;
    public static final int DEFAULT_TEMPLATE_REFRESH_MILLIS = 60_000;
    public static final int MAX_SAMPLING = 1_000;
    /** The smallest message that holds the header, both templates and an IPv6 record. */
    public static final int MIN_MTU = 512;
    public static final int MAX_MTU = 65_000;

    public static final IpfixConfig DISABLED = new IpfixConfig(List.of(), 0, DEFAULT_ACTIVE_TIMEOUT_MILLIS,
            DEFAULT_IDLE_TIMEOUT_MILLIS, 0, DEFAULT_MAX_FLOWS, DEFAULT_MTU, DEFAULT_TEMPLATE_REFRESH_MILLIS);

    public IpfixConfig {
        collectors = List.copyOf(Objects.requireNonNull(collectors, "collectors"));
        if (observationDomainId < 0 || observationDomainId > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("ipfix.observationDomainId must be 0..4294967295: "
                    + observationDomainId);
        }
        if (activeTimeoutMillis <= 0 || idleTimeoutMillis <= 0 || templateRefreshMillis <= 0) {
            throw new IllegalArgumentException("ipfix timeouts must be positive");
        }
        if (sampling < 0 || sampling > MAX_SAMPLING) {
            throw new IllegalArgumentException("ipfix.sampling must be 0..1000: " + sampling);
        }
        if (maxFlows < 16 || Integer.bitCount(maxFlows) != 1 || maxFlows > 1 << 20) {
            throw new IllegalArgumentException("ipfix.maxFlows must be a power of two in [16, 1048576]: " + maxFlows);
        }
        if (mtu < MIN_MTU || mtu > MAX_MTU) {
            throw new IllegalArgumentException("ipfix.mtu must be " + MIN_MTU + ".." + MAX_MTU + ": " + mtu);
        }
    }

    /** Exporting to {@code collectors} with every other setting at its default. */
    public static IpfixConfig to(List<InetSocketAddress> collectors, long observationDomainId) {
        return new IpfixConfig(collectors, observationDomainId, DEFAULT_ACTIVE_TIMEOUT_MILLIS,
                DEFAULT_IDLE_TIMEOUT_MILLIS, 0, DEFAULT_MAX_FLOWS, DEFAULT_MTU, DEFAULT_TEMPLATE_REFRESH_MILLIS);
    }

    public boolean enabled() {
        return !collectors.isEmpty();
    }

    public IpfixConfig withTimeouts(int activeMillis, int idleMillis) {
        return new IpfixConfig(collectors, observationDomainId, activeMillis, idleMillis, sampling, maxFlows, mtu,
                templateRefreshMillis);
    }

    public IpfixConfig withSampling(int oneIn) {
        return new IpfixConfig(collectors, observationDomainId, activeTimeoutMillis, idleTimeoutMillis, oneIn,
                maxFlows, mtu, templateRefreshMillis);
    }

    public IpfixConfig withMtu(int bytes) {
        return new IpfixConfig(collectors, observationDomainId, activeTimeoutMillis, idleTimeoutMillis, sampling,
                maxFlows, bytes, templateRefreshMillis);
    }
}
