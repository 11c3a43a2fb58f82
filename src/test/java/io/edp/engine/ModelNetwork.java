package io.edp.engine;

import io.edp.engine.nic.PortConfig;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Gateway;
import io.edp.engine.slowpath.MacAddress;
import io.edp.engine.slowpath.PortRange;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The small network the fast-equals-slow test drives, so that every failure reads in a few names:
 * <pre>
 *   A  vm-a on port 1 (VLAN 10)        10.0.0.1    fd00::1
 *   E  vm-e on port 3 (VLAN 10)        10.0.0.5    fd00::5
 *   B  behind uplink 0, tagged 10      10.0.0.2    fd00::2     same segment as A and E: switched
 *   C  behind uplink 2, tagged 20      10.128.0.3  fd01::3     behind gateway C: routed
 *   D  behind uplink 0, untagged       10.129.0.4  fd02::4     behind gateway D: routed
 *   G  the router's gateway address    10.0.0.254  fd00::fe    A and E ping it, the router answers (its replies
 *      of VLAN 10 (VLAN 20: 10.128.0.254, fd01::fe)           come from behind uplink 0, tagged 10, and are routed)
 *   X  broadcast / all-nodes on VLAN 10 10.0.0.255 ff02::1     flooded to every port of VLAN 10 but the sender's
 *                                                              (storm control: one a second per worker, no burst)
 * </pre>
 * Flows go between a {@link Pair} of hosts; the firewall rules and routes a test applies are picked from the
 * numbered pools {@link #RULES} and {@link #ROUTES}.
 */
final class ModelNetwork {

    static final long ROUTER_MAC = MacAddress.parse(EngineConfig.DEFAULT_ROUTER_MAC, "router");
    static final int VM_VLAN = 10;
    /** The inner tag of the QinQ frames the test sends. */
    static final int INNER_VLAN = 30;

    private ModelNetwork() {
    }

    enum Host {
        A(1, 0x020000000001L, 0, true, 0x0A000001, 0xfd00_0000_0000_0000L, 1),
        E(3, 0x02000000000EL, 0, true, 0x0A000005, 0xfd00_0000_0000_0000L, 5),
        B(0, 0x02000000000BL, VM_VLAN, true, 0x0A000002, 0xfd00_0000_0000_0000L, 2),
        C(2, 0x0200000000FCL, 20, false, 0x0A800003, 0xfd01_0000_0000_0000L, 3),
        D(0, 0x0200000000FDL, 0, false, 0x0A810004, 0xfd02_0000_0000_0000L, 4),
        G(0, 0x020000000047L, VM_VLAN, false, 0x0A0000FE, 0xfd00_0000_0000_0000L, 0xFE),
        X(0, 0xFFFF_FFFF_FFFFL, VM_VLAN, true, 0x0A0000FF, 0xff02_0000_0000_0000L, 1);

        /** The engine port its frames arrive on. */
        final int port;
        /** Its MAC, or its gateway's for a routed host: the source MAC of its frames. */
        final long mac;
        /** The tag its frames carry on the uplink (0: untagged; VM ports are untagged). */
        final int linkVlan;
        /** On the VM segment (VLAN 10): switched with A and E, routed otherwise. */
        final boolean onSegment;
        final int ipv4;
        final long ipv6Hi;
        final long ipv6Lo;

        Host(int port, long mac, int linkVlan, boolean onSegment, int ipv4, long ipv6Hi, long ipv6Lo) {
            this.port = port;
            this.mac = mac;
            this.linkVlan = linkVlan;
            this.onSegment = onSegment;
            this.ipv4 = ipv4;
            this.ipv6Hi = ipv6Hi;
            this.ipv6Lo = ipv6Lo;
        }

        /** The destination MAC of a frame from this host to {@code to}: its MAC when switched, else the router's. */
        long macTowards(Host to) {
            return onSegment && to.onSegment ? to.mac : ROUTER_MAC;
        }
    }

    /** Who initiates a flow and who answers. */
    enum Pair {
        A_B(Host.A, Host.B), B_A(Host.B, Host.A), A_C(Host.A, Host.C), C_A(Host.C, Host.A), A_D(Host.A, Host.D),
        E_A(Host.E, Host.A), C_D(Host.C, Host.D), A_G(Host.A, Host.G), E_G(Host.E, Host.G), A_X(Host.A, Host.X),
        B_X(Host.B, Host.X);

        final Host initiator;
        final Host responder;

        Pair(Host initiator, Host responder) {
            this.initiator = initiator;
            this.responder = responder;
        }
    }

    enum Protocol {
        UDP, TCP, ICMP
    }

    /** How a frame is tagged on the wire: as its link says, with an inner tag added (QinQ), or untagged. */
    enum Tagging {
        LINK, QINQ, UNTAGGED
    }

    /**
     * One conversation: {@code protocol} between the hosts of {@code pair}, over IPv6 or IPv4, from source port
     * 40000 + {@code port} to 4000 / 5353 (UDP) or 22 / 80 (TCP) by the port's parity; ICMP echo uses it as id.
     */
    record Flow(Protocol protocol, Pair pair, boolean ipv6, int port) {

        int sourcePort() {
            return 40_000 + port;
        }

        int destinationPort() {
            return switch (protocol) {
                case UDP -> port % 2 == 0 ? 4000 : 5353;
                case TCP -> port % 2 == 0 ? 22 : 80;
                case ICMP -> 0;
            };
        }

        @Override
        public String toString() {
            return protocol.name().toLowerCase() + (ipv6 ? "6 " : " ") + pair.initiator + ":" + sourcePort() + "→"
                    + pair.responder + (protocol == Protocol.ICMP ? "" : ":" + destinationPort());
        }
    }

    /**
     * The flows a generated sequence talks on, the busiest first (sequences pick low indices more often, so
     * conversations and their replies are common): every protocol, switched and routed, VM to VM, both families.
     */
    static final List<Flow> FLOWS = List.of(
            new Flow(Protocol.UDP, Pair.A_B, false, 0),
            new Flow(Protocol.TCP, Pair.A_B, false, 0),
            new Flow(Protocol.ICMP, Pair.A_C, false, 0),
            new Flow(Protocol.UDP, Pair.A_C, false, 0),
            new Flow(Protocol.TCP, Pair.A_C, false, 1),
            new Flow(Protocol.UDP, Pair.A_B, false, 1),
            new Flow(Protocol.UDP, Pair.B_A, false, 0),
            new Flow(Protocol.TCP, Pair.C_A, false, 0),
            new Flow(Protocol.UDP, Pair.E_A, false, 0),
            new Flow(Protocol.ICMP, Pair.A_D, false, 0),
            new Flow(Protocol.UDP, Pair.C_D, false, 0),
            new Flow(Protocol.UDP, Pair.A_B, true, 0),
            new Flow(Protocol.TCP, Pair.A_C, true, 0),
            new Flow(Protocol.ICMP, Pair.A_D, true, 0),
            new Flow(Protocol.TCP, Pair.A_D, false, 0),
            new Flow(Protocol.UDP, Pair.A_C, true, 1),
            // the router's own addresses (answered, or for TCP not) and flooded broadcast / multicast
            new Flow(Protocol.ICMP, Pair.A_G, false, 0),
            new Flow(Protocol.UDP, Pair.A_X, false, 0),
            new Flow(Protocol.ICMP, Pair.E_G, true, 0),
            new Flow(Protocol.UDP, Pair.B_X, false, 0),
            new Flow(Protocol.TCP, Pair.A_G, false, 0),
            new Flow(Protocol.UDP, Pair.A_X, true, 1));
    /** The router's addresses on VLAN 10 (A, B, E) and 20 (C); D's untagged segment has none. */
    /**
     * Tight enough that sequences meet it (two floods on one worker without a second between them): both engines
     * must then hold back the same frames.
     */
    static final StormControl STORM_CONTROL = new StormControl(1, 1);

    static final List<Gateway> GATEWAYS = List.of(new Gateway(VM_VLAN, "10.0.0.254", "fd00::fe"),
            new Gateway(20, "10.128.0.254", "fd01::fe"));

    // the pools: a test's configuration names rules and routes by their index here; most rules are logged, so
    // both engines' packet-log lines are compared too
    static final List<FirewallRule> RULES = List.of(
            FirewallRule.of(1, "10.0.0.1/32", "any", 0, Verdict.ALLOW).withLog(true),
            FirewallRule.of(2, "fd00::1/128", "any", 0, Verdict.ALLOW),
            new FirewallRule(3, "any", "any", 17, PortRange.ANY, PortRange.of(5353), Set.of(), Verdict.DROP, true),
            new FirewallRule(4, "any", "any", 6, PortRange.ANY, PortRange.of(80), Set.of(), Verdict.REJECT, true),
            FirewallRule.of(5, "any", "any", 1, Verdict.ALLOW),
            FirewallRule.of(6, "any", "10.0.0.1/32", 0, Verdict.DROP),
            FirewallRule.of(7, "any", "any", 0, Verdict.ALLOW).withLog(true),
            FirewallRule.of(8, "any", "any", 0, Verdict.DROP).withLog(true),
            FirewallRule.of(9, "10.0.0.1/32", "10.0.0.2/32", 0, Verdict.ALLOW).withLog(true),
            new FirewallRule(10, "any", "any", 6, PortRange.ANY, PortRange.of(22), Set.of(2), Verdict.DROP),
            FirewallRule.of(11, "fd00::/64", "any", 58, Verdict.ALLOW).withLog(true));
    /** Stateful: the port-based DROP and REJECT first, A may open connections, everything else is denied. */
    static final List<Integer> INITIAL_RULES = List.of(2, 3, 0, 1, 7);

    static final String GATEWAY_C = "02:00:00:00:00:fc";
    static final String GATEWAY_D = "02:00:00:00:00:fd";
    static final List<Route> ROUTES = List.of(
            new Route("10.128.0.0/16", GATEWAY_C, 2, 20),
            new Route("10.129.0.0/16", GATEWAY_D, 0, 0),
            new Route("10.0.0.0/24", "02:00:00:00:00:01", 1, 0),
            new Route("fd01::/16", GATEWAY_C, 2, 20),
            new Route("fd02::/16", GATEWAY_D, 0, 0),
            new Route("fd00::/64", "02:00:00:00:00:01", 1, 0),
            new Route("10.128.0.0/24", "02:00:00:00:00:fb", 2, 21),
            new Route("10.129.0.4/32", "02:00:00:00:00:fa", 2, 30));
    static final List<Integer> INITIAL_ROUTES = List.of(0, 1, 2, 3, 4, 5);
    /** A routed frame's VLAN by where it leaves (next hop, port): next hops are unique per VLAN in the pool. */
    private static final Map<String, Integer> ROUTE_VLANS = new HashMap<>();

    static {
        for (Route r : ROUTES) {
            Integer before = ROUTE_VLANS.put(MacAddress.parse(r.nextHopMac(), "") + "@" + r.port(), r.vlan());
            if (before != null && before != r.vlan()) {
                throw new IllegalStateException("route pool: next hop " + r.nextHopMac() + " has two VLANs");
            }
        }
    }

    /**
     * Flow-cache settings a test switches between: small and default-sized expiry windows. The live verifier checks
     * every fast-path hit, so a sequence also tests it (a mismatch would be a fast path that is not the slow one).
     */
    record CacheSetting(int capacity, int minSeconds, int maxSeconds) {

        FlowCacheConfig config() {
            return new FlowCacheConfig(capacity, Duration.ofSeconds(minSeconds), Duration.ofSeconds(maxSeconds), 1);
        }

        @Override
        public String toString() {
            return capacity + " entries, expiry " + minSeconds + "–" + maxSeconds + " s";
        }
    }

    static final List<CacheSetting> CACHE_SETTINGS = List.of(new CacheSetting(64, 2, 5),
            new CacheSetting(64, 90, 150), new CacheSetting(4, 20, 40), new CacheSetting(1024, 3, 3));

    /**
     * The MTU of uplink 1 (towards C) at the start, and the one {@link ModelEvent.ApplyMtu} sets or lifts: a
     * {@link #LARGE_PAYLOAD} datagram exceeds it, a small one never does.
     */
    static final int SMALL_MTU = 1280;
    /** A payload whose datagram fits the default MTU (1,500) but not {@link #SMALL_MTU}, in either IP version. */
    static final int LARGE_PAYLOAD = 1400;

    /** The engine configuration of the network: four small loopback ports (uplink 1's MTU small), two workers. */
    static EngineConfig config(Mode mode, List<Integer> rules, List<Integer> routes, CacheSetting cache) {
        Map<String, String> small = Map.of("ringSize", "64", "sinkFlows", "0");
        EngineConfig.Builder b = EngineConfig.builder()
                .mode(mode)
                .port(new PortConfig(0, "uplink0", 0, 2, 2, "loopback", small))
                .port(new PortConfig(1, "vm-a-eth0", 0, 1, 2, "loopback", small))
                .port(new PortConfig(2, "uplink1", 0, 1, 2, "loopback", small, SMALL_MTU))
                .port(new PortConfig(3, "vm-e-eth0", 0, 1, 2, "loopback", small))
                .vnic(new VnicConfig("vm-a-eth0", "vm-a", 1, "02:00:00:00:00:01", VM_VLAN, AdapterType.VMXNET3))
                .vnic(new VnicConfig("vm-e-eth0", "vm-e", 3, "02:00:00:00:00:0e", VM_VLAN, AdapterType.VMXNET3))
                .workers(0, 2)
                .flowCache(cache.config())
                .conntrackCapacity(1024)
                .mbufs(1024)
                .gateways(GATEWAYS)
                .stormControl(STORM_CONTROL);
        return b.rules(pick(RULES, rules)).routes(pick(ROUTES, routes)).build();
    }

    static <T> List<T> pick(List<T> pool, List<Integer> indices) {
        List<T> picked = new ArrayList<>();
        for (int i : indices) {
            picked.add(pool.get(i));
        }
        return picked;
    }

    static boolean isVmPort(int port) {
        return port == Host.A.port || port == Host.E.port;
    }

    /**
     * The VLAN a routed frame must leave with, from the route that sent it (found by its next hop and port):
     * the route's VLAN on an uplink, none on a VM port.
     */
    static int routedVlan(long nextHop, int port) {
        if (isVmPort(port)) {
            return 0;
        }
        Integer vlan = ROUTE_VLANS.get(nextHop + "@" + port);
        if (vlan == null) {
            throw new IllegalStateException("no route in the pool leads to " + Long.toHexString(nextHop) + " on "
                    + port);
        }
        return vlan;
    }

    /** Whether an IP packet's source (IPv4 in hi's top 32 bits) is one of the router's gateway addresses. */
    static boolean isGatewayAddress(long hi, long lo) {
        for (Gateway g : GATEWAYS) {
            if (g.ipv4Hi() == hi && lo == 0
                    || g.ipv6Address() != null && g.ipv6Address().hi() == hi && g.ipv6Address().lo() == lo) {
                return true;
            }
        }
        return false;
    }

    static int tcpFlags(int kind) {
        return switch (kind) {
            case 0 -> FlowKey.TCP_ACK;
            case 1 -> FlowKey.TCP_SYN;
            case 2 -> FlowKey.TCP_SYN | FlowKey.TCP_ACK;
            case 3 -> FlowKey.TCP_FIN | FlowKey.TCP_ACK;
            default -> FlowKey.TCP_RST;
        };
    }

    static String tcpFlagNames(int kind) {
        return switch (kind) {
            case 0 -> "ACK";
            case 1 -> "SYN";
            case 2 -> "SYN-ACK";
            case 3 -> "FIN";
            default -> "RST";
        };
    }
}
