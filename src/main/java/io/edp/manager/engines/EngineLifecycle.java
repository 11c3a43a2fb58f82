package io.edp.manager.engines;

import java.util.UUID;

/**
 * Published when an embedded engine starts, takes a new configuration live, or stops, so that metrics can follow
 * the engines (and, say, their rules).
 */
public sealed interface EngineLifecycle {

    UUID hostId();

    record Started(UUID hostId, String hostName, HostEngine engine) implements EngineLifecycle {
    }

    record Reconfigured(UUID hostId, HostEngine engine) implements EngineLifecycle {
    }

    record Stopped(UUID hostId, HostEngine engine) implements EngineLifecycle {
    }
}
