package io.edp.engine.slowpath;

/** What a firewall rule does with a matching new connection. */
public enum Verdict {
    ALLOW, DROP, REJECT
}
