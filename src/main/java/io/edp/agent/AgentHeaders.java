package io.edp.agent;

/** Headers between the manager and its agents. */
public final class AgentHeaders {

    /** The agent's version, sent with every request: the host response shows it. */
    public static final String VERSION = "EDP-Agent-Version";

    private AgentHeaders() {
    }
}
