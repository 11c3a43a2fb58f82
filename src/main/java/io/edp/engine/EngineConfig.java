package io.edp.engine;

import io.edp.engine.config.ConfigRules;
import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.packetlog.PacketLogConfig;
import io.edp.engine.packetlog.PacketLogWriter;
import io.edp.engine.nic.loopback.LoopbackDriverFactory;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Gateway;
import io.edp.engine.slowpath.MacAddress;
import io.edp.engine.slowpath.Route;
import io.edp.engine.telemetry.IpfixConfig;
import io.edp.engine.tlb.TlbConfig;
import io.edp.engine.worker.Worker;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything an engine runs, immutable and validated on construction (errors name the bad field). Build one with
 * {@link #builder()}, change one with {@link #toBuilder()}.
 *
 * @param mode               LEGACY, EDP_STANDARD or EDP_DEDICATED
 * @param ports              the engine's ports (uplinks and VM ports) and their drivers
 * @param vnics              VM vNICs; a port with a vNIC is a VM port, the others are uplinks
 * @param workersPerNumaNode worker threads per NUMA node
 * @param flowCache          per-worker flow cache size and expiry window
 * @param firewallRules      distributed firewall rules, in evaluation order (no match: allow)
 * @param routes             routes of the distributed router
 * @param routerMac          the router's MAC: frames sent to it are routed, not switched
 * @param conntrackCapacity  connection-table slots (power of two)
 * @param mbufs              packet buffers in the engine's pool
 * @param tlb                the engine's Thread Load Balancer; {@link TlbConfig#DISABLED} when not given
 * @param descriptorBytes    packet descriptor size of the mbuf pool: 0 for the mode's own (LEGACY 256, EDP 128),
 *                           or 128 to run LEGACY on EDP's descriptors, so a benchmark can tell what the
 *                           descriptor size alone costs (see {@link #mbufDescriptorBytes()})
 * @param ipfix              IPFIX flow export; {@link IpfixConfig#DISABLED} when not given
 * @param packetLog          where the firewall's packet log goes; {@link PacketLogConfig#DISABLED} when not given
 * @param gateways           the router's own addresses, at most one {@link Gateway} per VLAN
 * @param stormControl       each worker's limit on flooded broadcast and multicast frames;
 *                           {@link StormControl#DEFAULT} when not given
 */
public record EngineConfig(Mode mode, List<PortConfig> ports, List<VnicConfig> vnics,
        Map<Integer, Integer> workersPerNumaNode, FlowCacheConfig flowCache, List<FirewallRule> firewallRules,
        List<Route> routes, String routerMac, int conntrackCapacity, int mbufs, TlbConfig tlb,
        int descriptorBytes, IpfixConfig ipfix, PacketLogConfig packetLog, List<Gateway> gateways,
        StormControl stormControl) {

    public static final String DEFAULT_ROUTER_MAC = "02:ed:00:00:00:01";
    public static final int DEFAULT_CONNTRACK_CAPACITY = 262_144;
    public static final int DEFAULT_MBUFS = 16_384;
    public static final int MAX_WORKERS = ConfigRules.MAX_WORKERS;

    public EngineConfig {
        Objects.requireNonNull(mode, "mode is required");
        ports = List.copyOf(Objects.requireNonNull(ports, "ports"));
        vnics = List.copyOf(vnics == null ? List.of() : vnics);
        workersPerNumaNode = Map.copyOf(Objects.requireNonNull(workersPerNumaNode, "workersPerNumaNode"));
        flowCache = flowCache == null ? FlowCacheConfig.DEFAULT : flowCache;
        firewallRules = List.copyOf(firewallRules == null ? List.of() : firewallRules);
        routes = List.copyOf(routes == null ? List.of() : routes);
        routerMac = routerMac == null ? DEFAULT_ROUTER_MAC : routerMac;
        tlb = tlb == null ? TlbConfig.DISABLED : tlb;
        ipfix = ipfix == null ? IpfixConfig.DISABLED : ipfix;
        packetLog = packetLog == null ? PacketLogConfig.DISABLED : packetLog;
        gateways = List.copyOf(gateways == null ? List.of() : gateways);
        stormControl = stormControl == null ? StormControl.DEFAULT : stormControl;
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("ports: at least one port is required");
        }
        Set<Integer> portIds = new HashSet<>();
        Set<String> names = new HashSet<>();
        for (PortConfig p : ports) {
            if (!portIds.add(p.id())) {
                throw new IllegalArgumentException("ports: duplicate id " + p.id());
            }
            if (!names.add(p.name())) {
                throw new IllegalArgumentException("ports: duplicate name " + p.name());
            }
        }
        Set<Integer> vnicPorts = new HashSet<>();
        Set<String> addresses = new HashSet<>();
        for (VnicConfig v : vnics) {
            if (!portIds.contains(v.port())) {
                throw new IllegalArgumentException("vnics[" + v.name() + "].port: no such port " + v.port());
            }
            if (!vnicPorts.add(v.port())) {
                throw new IllegalArgumentException("vnics[" + v.name() + "].port: port " + v.port()
                        + " already has a vNIC");
            }
            if (!addresses.add(v.vlan() + "/" + MacAddress.parse(v.mac(), "mac"))) {
                throw new IllegalArgumentException("vnics[" + v.name() + "].mac: " + v.mac()
                        + " is already used on vlan " + v.vlan());
            }
        }
        ConfigRules.require(ConfigRules.workers(workersPerNumaNode));
        for (Route r : routes) {
            if (!portIds.contains(r.port())) {
                throw new IllegalArgumentException("routes[" + r.prefix() + "].port: no such port " + r.port());
            }
        }
        Set<Integer> ruleIds = new HashSet<>();
        for (FirewallRule r : firewallRules) {
            if (!ruleIds.add(r.id())) {
                throw new IllegalArgumentException("firewallRules: duplicate id " + r.id());
            }
        }
        Set<Integer> gatewayVlans = new HashSet<>();
        for (Gateway g : gateways) {
            if (!gatewayVlans.add(g.vlan())) {
                throw new IllegalArgumentException("gateways: duplicate vlan " + g.vlan());
            }
        }
        MacAddress.parse(routerMac, "routerMac");
        ConfigRules.require(ConfigRules.memory(conntrackCapacity, mbufs));
        if (descriptorBytes != 0 && descriptorBytes != Mbuf.DESCRIPTOR_BYTES) {
            throw new IllegalArgumentException("descriptorBytes must be 0 (the mode's own) or "
                    + Mbuf.DESCRIPTOR_BYTES + ": " + descriptorBytes);
        }
    }

    /** The mbuf pool's descriptor size: the mode's own (LEGACY's 256-byte PktHandle, EDP's 128-byte Mbuf) unless
     *  {@code descriptorBytes} asks LEGACY for 128. */
    public int mbufDescriptorBytes() {
        return descriptorBytes == 0 ? mode.descriptorBytes() : descriptorBytes;
    }

    public int workerCount() {
        int n = 0;
        for (int count : workersPerNumaNode.values()) {
            n += count;
        }
        return n;
    }

    /** The memory this engine allocates up front; see {@link #memoryBytes(Mode, int, int, int, int, int)}. */
    public long memoryBytes() {
        int loopbackPorts = 0;
        for (PortConfig p : ports) {
            if (p.driver().equals(LoopbackDriverFactory.KIND)) {
                loopbackPorts++;
            }
        }
        return memoryBytes(mode, workerCount(), flowCache.capacity(), conntrackCapacity, mbufs, loopbackPorts);
    }

    /**
     * The memory an engine with these settings allocates up front, heap and off-heap, from the layouts of the
     * structures it sizes: the packet-buffer pool (descriptors and data rooms), the connection table, per worker
     * its flow cache and fixed tables, the packet log's control writer, and per loopback port its traffic sink
     * (made page by page as traffic reaches its flows, counted whole so that traffic cannot exceed a budget). Not
     * counted: the rings of the ports (a few KiB per queue), the kernel's rings of {@code af_packet} ports, and the
     * objects made at run time (interned actions, statistics snapshots).
     */
    public static long memoryBytes(Mode mode, int workers, int flowCacheCapacity, int conntrackCapacity, int mbufs,
                                   int loopbackPorts) {
        return MbufPool.bytes(mbufs, mode.descriptorBytes()) + ConnectionTable.bytes(conntrackCapacity)
                + workers * (FlowCache.bytes(flowCacheCapacity) + Worker.fixedBytes()) + PacketLogWriter.bytes()
                + loopbackPorts * LoopbackNic.bytes();
    }

    public PortConfig port(int id) {
        for (PortConfig p : ports) {
            if (p.id() == id) {
                return p;
            }
        }
        throw new IllegalArgumentException("no port " + id);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.mode = mode;
        b.ports.addAll(ports);
        b.vnics.addAll(vnics);
        b.workers.putAll(workersPerNumaNode);
        b.flowCache = flowCache;
        b.rules.addAll(firewallRules);
        b.routes.addAll(routes);
        b.routerMac = routerMac;
        b.conntrackCapacity = conntrackCapacity;
        b.mbufs = mbufs;
        b.tlb = tlb;
        b.descriptorBytes = descriptorBytes;
        b.ipfix = ipfix;
        b.packetLog = packetLog;
        b.gateways.addAll(gateways);
        b.stormControl = stormControl;
        return b;
    }

    /**
     * Collects an {@link EngineConfig}; defaults: EDP_STANDARD, one worker on node 0, default flow cache, the
     * Thread Load Balancer off.
     */
    public static final class Builder {
        private Mode mode = Mode.EDP_STANDARD;
        private final List<PortConfig> ports = new ArrayList<>();
        private final List<VnicConfig> vnics = new ArrayList<>();
        private final Map<Integer, Integer> workers = new TreeMap<>();
        private FlowCacheConfig flowCache = FlowCacheConfig.DEFAULT;
        private final List<FirewallRule> rules = new ArrayList<>();
        private final List<Route> routes = new ArrayList<>();
        private String routerMac = DEFAULT_ROUTER_MAC;
        private int conntrackCapacity = DEFAULT_CONNTRACK_CAPACITY;
        private int mbufs = DEFAULT_MBUFS;
        private TlbConfig tlb = TlbConfig.DISABLED;
        private int descriptorBytes;
        private IpfixConfig ipfix = IpfixConfig.DISABLED;
        private PacketLogConfig packetLog = PacketLogConfig.DISABLED;
        private final List<Gateway> gateways = new ArrayList<>();
        private StormControl stormControl;

        public Builder mode(Mode value) {
            mode = value;
            return this;
        }

        public Builder port(PortConfig port) {
            ports.add(port);
            return this;
        }

        public Builder ports(List<PortConfig> value) {
            ports.clear();
            ports.addAll(value);
            return this;
        }

        public Builder vnic(VnicConfig vnic) {
            vnics.add(vnic);
            return this;
        }

        public Builder vnics(List<VnicConfig> value) {
            vnics.clear();
            vnics.addAll(value);
            return this;
        }

        public Builder workers(int numaNode, int count) {
            workers.put(numaNode, count);
            return this;
        }

        public Builder flowCache(FlowCacheConfig value) {
            flowCache = value;
            return this;
        }

        public Builder rule(FirewallRule rule) {
            rules.add(rule);
            return this;
        }

        public Builder rules(List<FirewallRule> value) {
            rules.clear();
            rules.addAll(value);
            return this;
        }

        public Builder route(Route route) {
            routes.add(route);
            return this;
        }

        public Builder routes(List<Route> value) {
            routes.clear();
            routes.addAll(value);
            return this;
        }

        public Builder routerMac(String mac) {
            routerMac = mac;
            return this;
        }

        public Builder conntrackCapacity(int slots) {
            conntrackCapacity = slots;
            return this;
        }

        public Builder mbufs(int count) {
            mbufs = count;
            return this;
        }

        public Builder tlb(TlbConfig value) {
            tlb = value;
            return this;
        }

        /** 0: the mode's own descriptor size; 128: EDP's descriptors in LEGACY too (a benchmark's control). */
        public Builder descriptorBytes(int bytes) {
            descriptorBytes = bytes;
            return this;
        }

        public Builder ipfix(IpfixConfig value) {
            ipfix = value;
            return this;
        }

        public Builder packetLog(PacketLogConfig value) {
            packetLog = value;
            return this;
        }

        public Builder gateway(Gateway gateway) {
            gateways.add(gateway);
            return this;
        }

        public Builder gateways(List<Gateway> value) {
            gateways.clear();
            gateways.addAll(value);
            return this;
        }

        public Builder stormControl(StormControl value) {
            this.stormControl = value;
            return this;
        }

        public EngineConfig build() {
            Map<Integer, Integer> w = workers.isEmpty() ? Map.of(0, 1) : workers;
            return new EngineConfig(mode, ports, vnics, w, flowCache, rules, routes, routerMac, conntrackCapacity,
                    mbufs, tlb, descriptorBytes, ipfix, packetLog, gateways, stormControl);
        }
    }
}
