package io.edp.manager.engines;

import java.nio.file.Path;
import java.util.List;

import io.edp.engine.config.ConfigRules;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The embedded engines: whether this replica runs them, their fixed memory per host, and which NIC drivers they
 * may open.
 *
 * @param embedded          this replica runs the embedded engines (and the reconciler that pushes to them); set it
 *                          true on exactly one replica of those sharing a database: the others serve the API only
 * @param mbufs             packet buffers per engine (2 KiB data room each)
 * @param conntrackCapacity connection-table slots per engine, a power of two
 * @param realDrivers       open {@code af_packet} (real interfaces) and {@code pcap} (files) ports; when false only
 *                          {@code loopback} ports open and the push of a host with other NICs fails, which keeps
 *                          tests and demos away from the machine's interfaces
 * @param memoryBudget      memory all embedded engines together may reserve (their estimate, heap and off-heap);
 *                          not set: half of the JVM's maximum heap, the other half left to the manager itself
 * @param pcapDir           the only directory whose files {@code pcap} NICs read and write; not set: the
 *                          {@code pcap} directory of the data directory
 * @param afPacketInterfaces the only interfaces {@code af_packet} NICs may open; empty (the default): none
 */
@ConfigurationProperties("edp.engines")
public record EngineProperties(@DefaultValue("true") boolean embedded, @DefaultValue("8192") int mbufs,
                               @DefaultValue("65536") int conntrackCapacity, @DefaultValue("true") boolean realDrivers,
                               DataSize memoryBudget, Path pcapDir, List<String> afPacketInterfaces) {

    public EngineProperties {
        ConfigRules.require(ConfigRules.memory(conntrackCapacity, mbufs)); // the engines' own rules, at start-up
        if (memoryBudget != null && memoryBudget.isNegative()) {
            throw new IllegalArgumentException("edp.engines.memory-budget must not be negative: " + memoryBudget);
        }
        afPacketInterfaces = afPacketInterfaces == null ? List.of() : List.copyOf(afPacketInterfaces);
    }

    /** The budget in bytes: as configured, else half of {@link Runtime#maxMemory()}. */
    public long memoryBudgetBytes() {
        return memoryBudget != null ? memoryBudget.toBytes() : Runtime.getRuntime().maxMemory() / 2;
    }
}
