package io.edp.engine;

import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.VnicAddress;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.ForwardingTables;
import io.edp.engine.slowpath.ForwardingTables.SwitchPort;
import io.edp.engine.slowpath.MacAddress;
import io.edp.engine.slowpath.SwitchingTable;
import io.edp.engine.worker.Generation;
import io.edp.engine.worker.TxPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compiles an {@link EngineConfig} into the {@link Generation} the workers run: the switching table of the vNICs,
 * each port's switch settings, firewall rules and routes as {@link ForwardingTables} (over the engine's one
 * connection table, which outlives generations), the TX ports by id, and the mode's fast-path settings.
 */
final class GenerationCompiler {

    private final ConnectionTable connections;

    GenerationCompiler(ConnectionTable connections) {
        this.connections = connections;
    }

    Generation compile(EngineConfig c, int number, Map<Integer, TxPort> ports) {
        List<SwitchPort> switchPorts = new ArrayList<>();
        int n = c.vnics().size();
        long[] macs = new long[n];
        int[] vlans = new int[n];
        int[] portIds = new int[n];
        for (int i = 0; i < n; i++) {
            VnicConfig v = c.vnics().get(i);
            macs[i] = MacAddress.parse(v.mac(), "vnics[" + v.name() + "].mac");
            vlans[i] = v.vlan();
            portIds[i] = v.port();
        }
        for (PortConfig p : c.ports()) {
            VnicConfig vnic = null;
            for (VnicConfig v : c.vnics()) {
                vnic = v.port() == p.id() ? v : vnic;
            }
            switchPorts.add(new SwitchPort(p.id(), vnic == null, vnic == null ? 0 : vnic.vlan(),
                    vnic != null && vnic.adapter() == AdapterType.E1000, p.mtu()));
        }
        ForwardingTables tables = new ForwardingTables(number, MacAddress.parse(c.routerMac(), "routerMac"),
                switchPorts, new SwitchingTable(macs, vlans, portIds), rules(c), c.routes(), connections,
                c.gateways());
        TxPort[] tx = new TxPort[PortConfig.MAX_PORT_ID + 1];
        for (TxPort port : ports.values()) {
            tx[port.id()] = port;
        }
        return new Generation(number, tables, c.mode() != Mode.LEGACY, c.mode() == Mode.EDP_DEDICATED, tx,
                c.flowCache().capacity(), c.flowCache().minExpiry().toMillis(), c.flowCache().maxExpiry().toMillis(),
                c.flowCache().verifierSampleRate(), c.ipfix(), c.stormControl());
    }

    /** The rules, their {@code log} flags cleared while the packet log is off (logging then costs nothing). */
    private static List<FirewallRule> rules(EngineConfig c) {
        return c.packetLog().enabled() ? c.firewallRules()
                : c.firewallRules().stream().map(r -> r.withLog(false)).toList();
    }

    /** The vNICs' addresses, which each port's driver filters on. */
    static List<VnicAddress> vnicAddresses(EngineConfig c) {
        List<VnicAddress> addresses = new ArrayList<>();
        for (VnicConfig v : c.vnics()) {
            addresses.add(v.address());
        }
        return addresses;
    }
}
