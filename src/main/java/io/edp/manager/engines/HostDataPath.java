package io.edp.manager.engines;

import java.util.UUID;

import io.edp.engine.EngineConfig;

/**
 * What one host should run at desired generation {@code generation}. {@code engine} (Thread Load Balancer included)
 * is null when the host has no port at all (no physical NIC, no virtual NIC): it then runs no engine.
 */
public record HostDataPath(UUID hostId, String hostName, long generation, EngineConfig engine) {
}
