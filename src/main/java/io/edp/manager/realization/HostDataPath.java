package io.edp.manager.realization;

import java.util.UUID;

import io.edp.engine.EngineConfig;
import io.edp.engine.tlb.TlbConfig;

/**
 * What one host should run at desired generation {@code generation}: its engine's configuration and its Thread
 * Load Balancer's. {@code engine} is null when the host has no port at all (no physical NIC, no virtual NIC): it
 * then runs no engine.
 */
public record HostDataPath(UUID hostId, String hostName, long generation, EngineConfig engine, TlbConfig tlb) {
}
