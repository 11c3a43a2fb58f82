package io.edp.manager.realization;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

import io.edp.engine.AdapterType;
import io.edp.engine.EngineConfig;
import io.edp.engine.VnicConfig;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Gateway;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.Verdict;
import io.edp.manager.edp.EdpSettings;
import io.edp.manager.edp.HostEdpService;
import io.edp.manager.engines.EngineProperties;
import io.edp.manager.engines.HostDataPath;
import io.edp.manager.firewall.FirewallRuleResponse;
import io.edp.manager.firewall.FirewallRuleService;
import io.edp.manager.host.HostInventories.HostInventory;
import io.edp.manager.host.HostInventories.PhysicalPort;
import io.edp.manager.host.HostInventories;
import io.edp.manager.host.pnic.DriverSettings;
import io.edp.manager.packetlog.PacketLogDirectory;
import io.edp.manager.packetlog.SyslogServerResponse;
import io.edp.manager.packetlog.SyslogServerService;
import io.edp.manager.routing.GatewayResponse;
import io.edp.manager.routing.GatewayService;
import io.edp.manager.routing.RouteResponse;
import io.edp.manager.routing.RouteService;
import io.edp.manager.telemetry.IpfixCollectorService;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * Builds a host's engine configuration from the database: its inventory (physical NICs become ports with their RX
 * queues and MTU, each VM's virtual NIC a VM port), its effective EDP settings, and the global firewall rules, routes
 * and gateways that apply to it. Each port has the id (and a virtual NIC's port the name, {@code <vm>-eth<N>}) its NIC
 * got when created and keeps: adding or removing a NIC or a VM changes no other port, so the engine takes it live.
 */
@Component
@EnableConfigurationProperties(EngineProperties.class)
class DesiredState {

    private final HostInventories hosts;
    private final HostEdpService edp;
    private final FirewallRuleService firewall;
    private final RouteService routing;
    private final GatewayService gateways;
    private final IpfixCollectorService ipfixCollectors;
    private final SyslogServerService syslogServers;
    private final PacketLogDirectory packetLogDirectory;
    private final EngineProperties engines;

    DesiredState(HostInventories hosts, HostEdpService edp, FirewallRuleService firewall, RouteService routing,
                 GatewayService gateways, IpfixCollectorService ipfixCollectors, SyslogServerService syslogServers,
                 PacketLogDirectory packetLogDirectory, EngineProperties engines) {
        this.hosts = hosts;
        this.ipfixCollectors = ipfixCollectors;
        this.edp = edp;
        this.firewall = firewall;
        this.routing = routing;
        this.gateways = gateways;
        this.syslogServers = syslogServers;
        this.packetLogDirectory = packetLogDirectory;
        this.engines = engines;
    }

    /** What a host's own configuration is built from: its name, effective EDP settings and NICs. */
    record Inventory(HostInventory host, EdpSettings settings) {
    }

    /**
     * What every host's configuration takes from the global settings: read once for many hosts
     * ({@link #build}), it is not read again for each.
     */
    record Shared(List<FirewallRuleResponse> rules, List<RouteResponse> routes, List<GatewayResponse> gateways,
                  List<InetSocketAddress> ipfixCollectors, List<SyslogServerResponse> syslogServers) {
    }

    Shared shared() {
        return new Shared(firewall.all(), routing.all(), gateways.all(), ipfixCollectors.all(), syslogServers.all());
    }

    /**
     * What host {@code hostId} should run at {@code generation}; empty if the host is gone.
     *
     * @throws IllegalArgumentException when the settings do not make a valid engine configuration
     */
    Optional<HostDataPath> read(UUID hostId, long generation) {
        return Optional.ofNullable(inventories(List.of(hostId)).get(hostId))
                .map(inventory -> build(hostId, generation, inventory, shared()));
    }

    /**
     * The inventories of those of {@code hostIds} that exist, in four queries however many hosts: read with
     * {@link #shared} in one snapshot, they build every host's configuration ({@link #build}).
     */
    Map<UUID, Inventory> inventories(Collection<UUID> hostIds) {
        var hosts = this.hosts.of(hostIds);
        var settings = edp.effective(hosts.keySet());
        Map<UUID, Inventory> inventories = new HashMap<>();
        hosts.forEach((id, host) -> {
            if (settings.containsKey(id)) {
                inventories.put(id, new Inventory(host, settings.get(id)));
            }
        });
        return inventories;
    }

    /**
     * What the host of {@code inventory} should run at {@code generation}.
     *
     * @throws IllegalArgumentException when the settings do not make a valid engine configuration
     */
    HostDataPath build(UUID hostId, long generation, Inventory inventory, Shared shared) {
        var host = inventory.host();
        if (host.physical().isEmpty() && host.virtual().isEmpty()) {
            return new HostDataPath(hostId, host.name(), generation, null);
        }
        return new HostDataPath(hostId, host.name(), generation, engineConfig(inventory.settings(), host, shared));
    }

    private EngineConfig engineConfig(EdpSettings settings, HostInventory host, Shared shared) {
        var physical = host.physical();
        var virtual = host.virtual();
        var workers = host.workers(settings.workersPerNumaNode());
        int workerCount = workers.values().stream().mapToInt(Integer::intValue).sum();
        int txQueues = Math.clamp(workerCount, 1, 64);
        var config = EngineConfig.builder()
                .mode(settings.engineMode())
                .flowCache(settings.flowCacheConfig())
                .tlb(settings.tlbConfig())
                .stormControl(settings.stormControl())
                .ipfix(settings.ipfixConfig(shared.ipfixCollectors()))
                .packetLog(settings.packetLogConfig(shared.syslogServers().stream()
                        .map(SyslogServerResponse::engineServer).toList(), packetLogDirectory.dir()))
                .mbufs(engines.mbufs())
                .conntrackCapacity(engines.conntrackCapacity());
        workers.forEach(config::workers);
        // names and MACs the rules' appliedTo and the routes' output refer to, with their port ids
        Map<String, Integer> portIds = new HashMap<>();
        Map<String, Integer> uplinks = new HashMap<>();
        for (var nic : physical) {
            config.port(new PortConfig(nic.enginePort(), nic.name(), nic.numaNode(), nic.rxQueues(), txQueues,
                    nic.driver(), driverOptions(nic), nic.mtu()));
            portIds.put(nic.name(), nic.enginePort());
            uplinks.put(nic.name(), nic.enginePort());
        }
        for (var nic : virtual) {
            config.port(PortConfig.loopback(nic.enginePort(), nic.portName(), nic.numaNode(), nic.rxQueues(),
                    txQueues).withMtu(nic.mtu()));
            config.vnic(new VnicConfig(nic.portName(), nic.vm(), nic.enginePort(), nic.mac(), nic.vlan(),
                    AdapterType.valueOf(nic.adapter())));
            portIds.put(nic.mac(), nic.enginePort());
        }
        for (var rule : shared.rules()) {
            engineRule(rule, portIds).ifPresent(config::rule);
        }
        for (var route : shared.routes()) {
            var output = uplinks.get(route.output());
            if (output != null) {
                config.route(new Route(route.prefix(), route.nextHopMac(), output, route.vlan()));
            }
        }
        for (var gateway : shared.gateways()) {
            config.gateway(new Gateway(gateway.vlan(), gateway.ipv4(), gateway.ipv6()));
        }
        return config.build();
    }

    private static Map<String, String> driverOptions(PhysicalPort nic) {
        Map<String, String> options = new TreeMap<>();
        if (nic.driver().equals(DriverSettings.LOOPBACK)) {
            // the loopback NIC steers as the hardware does: NetQueue filters for the VMs' MAC + VLAN, queue 0 the
            // default queue, and with RSS on every queue in one Shared NetQueue RSS pool (Toeplitz hash)
            options.put("steering", "netqueue");
            if (nic.rss()) {
                options.put("rss", "true");
            }
        }
        if (nic.interfaceName() != null) {
            options.put("interface", nic.interfaceName());
        }
        if (nic.pcapInput() != null) {
            options.put("rxFile", nic.pcapInput());
        }
        if (nic.pcapOutput() != null) {
            options.put("txFile", nic.pcapOutput());
        }
        return options;
    }

    /** The rule as this host's engine runs it; empty when it applies only to ports the host does not have. */
    private static Optional<FirewallRule> engineRule(FirewallRuleResponse rule, Map<String, Integer> portIds) {
        var appliedTo = new HashSet<Integer>();
        for (var target : rule.appliedTo()) {
            var id = portIds.get(target);
            if (id != null) {
                appliedTo.add(id);
            }
        }
        if (!rule.appliedTo().isEmpty() && appliedTo.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new FirewallRule(Math.toIntExact(rule.id()), rule.source(), rule.destination(),
                rule.protocol().number(), rule.sourcePortRange(), rule.destinationPortRange(), appliedTo,
                Verdict.valueOf(rule.action()), rule.log()));
    }
}
