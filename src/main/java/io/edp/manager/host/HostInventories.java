package io.edp.manager.host;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The hosts' inventory as other modules read it to build and size engines: names, placement, NUMA nodes, physical
 * NICs and virtual NICs. The inventory's tables are this module's own; other modules read them only through here.
 * Many hosts are read in a constant number of queries, in the caller's transaction (a caller that needs one
 * snapshot of several modules opens it).
 */
@Component
public class HostInventories {

    /** A host's NICs, each in the order of its engine port id. */
    public record HostInventory(String name, Placement placement, List<PhysicalPort> physical,
                                List<VirtualPort> virtual) {

        /**
         * The workers per NUMA node of the host's engine: {@code configured} when set, else one on each node with a
         * physical NIC, else one on the node of its oldest virtual NIC; with no NIC yet, one on node 0 (the count its
         * first NIC will give it).
         */
        public Map<Integer, Integer> workers(Map<Integer, Integer> configured) {
            if (configured != null) {
                return configured;
            }
            Map<Integer, Integer> workers = new TreeMap<>();
            physical.forEach(nic -> workers.put(nic.numaNode(), 1));
            if (workers.isEmpty()) {
                workers.put(virtual.isEmpty() ? 0 : virtual.getFirst().numaNode(), 1);
            }
            return workers;
        }
    }

    /**
     * A physical NIC, its engine port's id (kept from its creation) and its driver's settings ({@code interfaceName}
     * for af_packet, the files for pcap). Its port is named as the NIC.
     */
    public record PhysicalPort(int enginePort, String name, int numaNode, int rxQueues, boolean rss, String driver,
                               String interfaceName, String pcapInput, String pcapOutput, int mtu) {
    }

    /** A virtual NIC, its engine port's id and name (both kept from its creation), with its VM's name and NUMA node. */
    public record VirtualPort(int enginePort, String portName, String vm, int numaNode, String mac, int vlan,
                              String adapter, int rxQueues, int mtu) {
    }

    private final JdbcClient jdbc;

    HostInventories(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The inventories of those of {@code hostIds} that exist, in three queries however many hosts. */
    public Map<UUID, HostInventory> of(Collection<UUID> hostIds) {
        return read("id = ANY(:ids)", Map.of("ids", hostIds.toArray(UUID[]::new)));
    }

    /** The inventories of every host of {@code placement}, in three queries. */
    public Map<UUID, HostInventory> placed(Placement placement) {
        return read("placement = :placement", Map.of("placement", placement.name()));
    }

    /** The NUMA nodes the host declares (empty if it is gone). */
    public List<Integer> numaNodes(UUID hostId) {
        return jdbc.sql("SELECT node_id FROM host_numa_node WHERE host_id = :hostId ORDER BY node_id")
                .param("hostId", hostId).query(Integer.class).list();
    }

    /** The hosts that {@code hostWhere} selects (a condition on the host table), with their NICs. */
    private Map<UUID, HostInventory> read(String hostWhere, Map<String, ?> params) {
        String ofHosts = "host_id IN (SELECT id FROM host WHERE " + hostWhere + ")";
        Map<UUID, List<PhysicalPort>> physical = new HashMap<>();
        jdbc.sql("""
                        SELECT host_id, engine_port, name, numa_node, rx_queues, rss, driver_kind, interface_name,
                               pcap_input_file, pcap_output_file, mtu
                          FROM physical_nic WHERE %s ORDER BY engine_port""".formatted(ofHosts))
                .params(params)
                .query(rs -> {
                    physical.computeIfAbsent(rs.getObject(1, UUID.class), id -> new ArrayList<>()).add(
                            new PhysicalPort(rs.getInt(2), rs.getString(3), rs.getInt(4), rs.getInt(5),
                                    rs.getBoolean(6), rs.getString(7), rs.getString(8), rs.getString(9),
                                    rs.getString(10), rs.getInt(11)));
                });
        Map<UUID, List<VirtualPort>> virtual = new HashMap<>();
        jdbc.sql("""
                        SELECT n.host_id, n.engine_port, n.port_index, vm.name, vm.numa_node, n.mac, n.vlan,
                               n.adapter_type, n.rx_queues, n.mtu
                          FROM virtual_nic n JOIN vm ON vm.id = n.vm_id
                         WHERE n.%s ORDER BY n.engine_port""".formatted(ofHosts))
                .params(params)
                .query(rs -> {
                    virtual.computeIfAbsent(rs.getObject(1, UUID.class), id -> new ArrayList<>()).add(
                            new VirtualPort(rs.getInt(2), EnginePort.vnicName(rs.getString(4), rs.getInt(3)),
                                    rs.getString(4), rs.getInt(5), rs.getString(6), rs.getInt(7), rs.getString(8),
                                    rs.getInt(9), rs.getInt(10)));
                });
        Map<UUID, HostInventory> inventories = new HashMap<>();
        jdbc.sql("SELECT id, name, placement FROM host WHERE " + hostWhere).params(params).query(rs -> {
            var id = rs.getObject(1, UUID.class);
            inventories.put(id, new HostInventory(rs.getString(2), Placement.valueOf(rs.getString(3)),
                    physical.getOrDefault(id, List.of()), virtual.getOrDefault(id, List.of())));
        });
        return inventories;
    }
}
