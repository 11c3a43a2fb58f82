package io.edp.manager.realization;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Sizes of the embedded engines' fixed memory, per host: the packet-buffer pool and the connection table.
 *
 * @param mbufs             packet buffers per engine (2 KiB data room each)
 * @param conntrackCapacity connection-table slots per engine, a power of two
 */
@ConfigurationProperties("edp.engines")
public record EngineProperties(@DefaultValue("8192") int mbufs, @DefaultValue("65536") int conntrackCapacity) {
}
