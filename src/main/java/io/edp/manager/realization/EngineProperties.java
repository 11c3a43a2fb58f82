package io.edp.manager.realization;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The embedded engines: their fixed memory per host, and which NIC drivers they may open.
 *
 * @param mbufs             packet buffers per engine (2 KiB data room each)
 * @param conntrackCapacity connection-table slots per engine, a power of two
 * @param realDrivers       open {@code af_packet} (real interfaces) and {@code pcap} (files) ports; when false only
 *                          {@code loopback} ports open and the push of a host with other NICs fails, which keeps
 *                          tests and demos away from the machine's interfaces
 */
@ConfigurationProperties("edp.engines")
public record EngineProperties(@DefaultValue("8192") int mbufs, @DefaultValue("65536") int conntrackCapacity,
                               @DefaultValue("true") boolean realDrivers) {
}
