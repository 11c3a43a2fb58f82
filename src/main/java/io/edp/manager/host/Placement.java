package io.edp.manager.host;

/** Where a host's engine runs. */
public enum Placement {
    /** In the manager's process, pushed by its reconciler: one machine, nothing to install on the host. */
    EMBEDDED,
    /** On the host itself, run by {@code edp agent}, which fetches the desired state and reports the realization. */
    AGENT
}
