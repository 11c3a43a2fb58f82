package io.edp.engine.slowpath;

import java.util.Objects;
import java.util.Set;

/**
 * One distributed-firewall rule. Rules are evaluated in list order for the first packet of a connection; the
 * first match decides. {@code protocol} is an IP protocol number or 0 for any; port ranges apply to TCP and UDP;
 * {@code appliedTo} holds engine port ids (empty: every port), matched against the ingress or switched egress port.
 * A rule with {@code log} writes a packet-log line for each connection it starts (and its end) and each packet it
 * drops.
 */
public record FirewallRule(int id, String source, String destination, int protocol, PortRange sourcePorts,
        PortRange destinationPorts, Set<Integer> appliedTo, Verdict verdict, boolean log) {

    public FirewallRule {
        if (id <= 0) {
            throw new IllegalArgumentException("firewall rule id must be positive: " + id);
        }
        if (protocol < 0 || protocol > 255) {
            throw new IllegalArgumentException("firewall rule " + id + " protocol must be 0..255: " + protocol);
        }
        Objects.requireNonNull(verdict, "firewall rule " + id + " verdict");
        sourcePorts = sourcePorts == null ? PortRange.ANY : sourcePorts;
        destinationPorts = destinationPorts == null ? PortRange.ANY : destinationPorts;
        appliedTo = appliedTo == null ? Set.of() : Set.copyOf(appliedTo);
        Cidr.parse(source, "firewall rule " + id + " source");
        Cidr.parse(destination, "firewall rule " + id + " destination");
    }

    /** A rule that is not logged. */
    public FirewallRule(int id, String source, String destination, int protocol, PortRange sourcePorts,
            PortRange destinationPorts, Set<Integer> appliedTo, Verdict verdict) {
        this(id, source, destination, protocol, sourcePorts, destinationPorts, appliedTo, verdict, false);
    }

    /** The same rule, logged or not. */
    public FirewallRule withLog(boolean logged) {
        return new FirewallRule(id, source, destination, protocol, sourcePorts, destinationPorts, appliedTo, verdict,
                logged);
    }

    /** A rule on addresses and protocol only, applied everywhere. */
    public static FirewallRule of(int id, String source, String destination, int protocol, Verdict verdict) {
        return new FirewallRule(id, source, destination, protocol, PortRange.ANY, PortRange.ANY, Set.of(), verdict);
    }
}
