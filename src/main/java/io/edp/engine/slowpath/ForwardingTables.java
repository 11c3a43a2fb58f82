package io.edp.engine.slowpath;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * One generation of compiled configuration, immutable: what the IOChain reads. A new generation is built off
 * the packet path and published as a whole; the connection table carries over between generations, and numbers
 * the rule set ({@link #policyVersion}) so that only a change of the rules re-checks its connections.
 */
public final class ForwardingTables {

    /** How a port takes part in switching: uplinks carry tagged frames, VM ports belong to one VLAN. */
    public record SwitchPort(int id, boolean uplink, int accessVlan, boolean slowPathOnly, int mtu) {
    }

    private final int generation;
    private final long routerMac;
    private final SwitchingTable switching;
    private final RuleSet rules;
    private final int policyVersion;
    private final ConnectionTable connections;
    private final PrefixTable routes4;
    private final PrefixTable routes6;
    /** Per family: the position in the configured route list of each prefix-table value. */
    private final int[] family4;
    private final int[] family6;
    private final long[] routeNextHop;
    private final int[] routePort;
    private final int[] routeVlan;
    private final boolean[] present;
    private final boolean[] uplink;
    private final boolean[] slowPathOnly;
    private final int[] accessVlan;
    private final int[] mtu;
    private final int defaultUplink;
    /**
     * Per VLAN: the VM ports on it, in port order (null: none), the ports a broadcast is flooded to; up to the
     * highest VLAN with a VM port, as the gateways' arrays go up to the highest VLAN with a gateway (an agent
     * compiles a generation on every change: 4,096 entries each were most of its garbage).
     */
    private final int[][] vlanPorts;
    /** Per VLAN: the gateway's IPv4 address (flow-key form, 0: none) and IPv6 address (both 0: none). */
    private final long[] gateway4;
    private final long[] gateway6Hi;
    private final long[] gateway6Lo;
    /** The VLANs that have a gateway: the router's addresses are theirs. */
    private final int[] gatewayVlans;

    public ForwardingTables(int generation, long routerMac, List<SwitchPort> ports, SwitchingTable switching,
            List<FirewallRule> rules, List<Route> routes, ConnectionTable connections, List<Gateway> gateways) {
        this.generation = generation;
        this.routerMac = routerMac;
        this.switching = switching;
        this.rules = new RuleSet(rules);
        this.connections = connections;
        this.policyVersion = connections.policyVersion(rules);
        int maxPort = 0;
        for (SwitchPort p : ports) {
            maxPort = Math.max(maxPort, p.id());
        }
        present = new boolean[maxPort + 1];
        uplink = new boolean[maxPort + 1];
        slowPathOnly = new boolean[maxPort + 1];
        accessVlan = new int[maxPort + 1];
        mtu = new int[maxPort + 1];
        int firstUplink = -1;
        for (SwitchPort p : ports) {
            present[p.id()] = true;
            uplink[p.id()] = p.uplink();
            slowPathOnly[p.id()] = p.slowPathOnly();
            accessVlan[p.id()] = p.accessVlan();
            mtu[p.id()] = p.mtu();
            if (p.uplink() && (firstUplink < 0 || p.id() < firstUplink)) {
                firstUplink = p.id();
            }
        }
        defaultUplink = firstUplink;
        vlanPorts = new int[ports.stream().filter(p -> !p.uplink()).mapToInt(SwitchPort::accessVlan).max()
                .orElse(-1) + 1][];
        for (SwitchPort p : ports.stream().sorted(Comparator.comparingInt(SwitchPort::id)).toList()) {
            if (!p.uplink()) {
                int[] on = vlanPorts[p.accessVlan()];
                on = on == null ? new int[1] : Arrays.copyOf(on, on.length + 1);
                on[on.length - 1] = p.id();
                vlanPorts[p.accessVlan()] = on;
            }
        }
        gatewayVlans = gateways.stream().mapToInt(Gateway::vlan).toArray();
        int vlans = Arrays.stream(gatewayVlans).max().orElse(-1) + 1;
        gateway4 = new long[vlans];
        gateway6Hi = new long[vlans];
        gateway6Lo = new long[vlans];
        for (Gateway g : gateways) {
            gateway4[g.vlan()] = g.ipv4Hi();
            Cidr v6 = g.ipv6Address();
            if (v6 != null) {
                gateway6Hi[g.vlan()] = v6.hi();
                gateway6Lo[g.vlan()] = v6.lo();
            }
        }
        List<Cidr> v4 = new ArrayList<>();
        List<Cidr> v6 = new ArrayList<>();
        List<Integer> index4 = new ArrayList<>();
        List<Integer> index6 = new ArrayList<>();
        routeNextHop = new long[routes.size()];
        routePort = new int[routes.size()];
        routeVlan = new int[routes.size()];
        for (int i = 0; i < routes.size(); i++) {
            Route r = routes.get(i);
            Cidr prefix = Cidr.parse(r.prefix(), "route prefix");
            if (!hasPort(r.port())) {
                throw new IllegalArgumentException("route " + r.prefix() + " port: no such port " + r.port());
            }
            (prefix.version() == 4 ? v4 : v6).add(prefix);
            (prefix.version() == 4 ? index4 : index6).add(i);
            routeNextHop[i] = MacAddress.parse(r.nextHopMac(), "route " + r.prefix() + " nextHopMac");
            routePort[i] = r.port();
            routeVlan[i] = r.vlan();
        }
        routes4 = new PrefixTable(v4);
        routes6 = new PrefixTable(v6);
        family4 = index4.stream().mapToInt(Integer::intValue).toArray();
        family6 = index6.stream().mapToInt(Integer::intValue).toArray();
    }

    public int generation() {
        return generation;
    }

    public long routerMac() {
        return routerMac;
    }

    public SwitchingTable switching() {
        return switching;
    }

    public RuleSet rules() {
        return rules;
    }

    /** The version of these rules in the connection table (see {@link ConnectionTable#policyVersion}). */
    public int policyVersion() {
        return policyVersion;
    }

    public ConnectionTable connections() {
        return connections;
    }

    public boolean hasPort(int port) {
        return port >= 0 && port < present.length && present[port];
    }

    public boolean isUplink(int port) {
        return uplink[port];
    }

    /** Ports whose adapter (E1000) never gets the fast path. */
    public boolean isSlowPathOnly(int port) {
        return port < slowPathOnly.length && slowPathOnly[port];
    }

    public int accessVlan(int port) {
        return accessVlan[port];
    }

    /** The uplink that unknown destinations from VM ports go to, or -1. */
    public int defaultUplink() {
        return defaultUplink;
    }

    /** The largest IP packet {@code port} sends. */
    public int mtu(int port) {
        return mtu[port];
    }

    /** The VM ports on {@code vlan} in port order, null when it has none; never modified by the caller. */
    public int[] vlanPorts(int vlan) {
        return vlan < vlanPorts.length ? vlanPorts[vlan] : null;
    }

    /** The gateway IPv4 address of {@code vlan} in the flow key's form, 0 when it has none. */
    public long gateway4(int vlan) {
        return vlan < gateway4.length ? gateway4[vlan] : 0;
    }

    public long gateway6Hi(int vlan) {
        return vlan < gateway6Hi.length ? gateway6Hi[vlan] : 0;
    }

    public long gateway6Lo(int vlan) {
        return vlan < gateway6Lo.length ? gateway6Lo[vlan] : 0;
    }

    /** Whether {@code vlan}'s gateway has the address (hi, lo) of {@code ipVersion} (IPv4 in hi's top 32 bits). */
    public boolean isGateway(int vlan, int ipVersion, long hi, long lo) {
        return ipVersion == 4 ? hi != 0 && gateway4(vlan) == hi
                : (hi != 0 || lo != 0) && gateway6Hi(vlan) == hi && gateway6Lo(vlan) == lo;
    }

    /** Whether any segment's gateway has the address: the router answers echo to each of its addresses. */
    public boolean isRouterAddress(int ipVersion, long hi, long lo) {
        for (int vlan : gatewayVlans) {
            if (isGateway(vlan, ipVersion, hi, lo)) {
                return true;
            }
        }
        return false;
    }

    /** The route index (into the configured route list) for a destination, or -1. */
    public int route(int ipVersion, long hi, long lo) {
        if (ipVersion == 4) {
            int i = routes4.lookup(hi, lo);
            return i < 0 ? -1 : family4[i];
        }
        int i = routes6.lookup(hi, lo);
        return i < 0 ? -1 : family6[i];
    }

    public long routeNextHop(int route) {
        return routeNextHop[route];
    }

    public int routePort(int route) {
        return routePort[route];
    }

    public int routeVlan(int route) {
        return routeVlan[route];
    }
}
