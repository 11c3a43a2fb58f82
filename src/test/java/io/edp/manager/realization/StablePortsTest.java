package io.edp.manager.realization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import com.jayway.jsonpath.JsonPath;
import io.edp.engine.nic.PortConfig;
import io.edp.manager.ManagerTest;
import io.edp.manager.engines.HostEngines;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Engine ports keep the id (and a vNIC's port the name) their NIC got when created: adding a VM whose name sorts
 * first changes no other port, so the push is applied to the running engine (its captures run on, its traffic is
 * forwarded) instead of rebuilding it; freed ids are reused lowest first; the upgrade gives existing NICs today's ids.
 */
class StablePortsTest extends ManagerTest {

    private static final String LATE_MAC = "00:50:56:aa:bb:03";

    @Autowired
    HostEngines engines;

    @Autowired
    DataSource dataSource;

    private String vnic(UUID hostId, UUID vm, String mac) throws Exception {
        return created("/api/v1/hosts/" + hostId + "/vms/" + vm + "/vnics", """
                {"mac": "%s", "vlan": 0, "adapterType": "VMXNET3", "rxQueues": 1}""".formatted(mac));
    }

    private String pnic(UUID hostId, String name) throws Exception {
        return created("/api/v1/hosts/" + hostId + "/pnics", """
                {"name": "%s", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""".formatted(name));
    }

    /** The running engine's ports, id to name. */
    private Map<Integer, String> ports(UUID hostId) {
        Map<Integer, String> ports = new TreeMap<>();
        engines.engine(hostId).ifPresent(engine -> engine.config().ports()
                .forEach(port -> ports.put(port.id(), port.name())));
        return ports;
    }

    @Test
    void addingAVmThatSortsFirstIsAppliedLiveAndTheCaptureOnALaterVmRunsOn() throws Exception {
        var hostId = createHost("esx-stable-ports");
        assertThat(JsonPath.<Integer>read(pnic(hostId, "vmnic0"), "$.enginePort")).isZero();
        var middle = createVm(hostId, "m-vm");
        vnic(hostId, middle, "00:50:56:aa:bb:02");
        var late = createVm(hostId, "z-vm");
        String lateNic = vnic(hostId, late, LATE_MAC);
        assertThat(JsonPath.<Integer>read(lateNic, "$.enginePort")).isEqualTo(2);
        assertThat(JsonPath.<String>read(lateNic, "$.enginePortName")).isEqualTo("z-vm-eth1");
        await("the engine with three ports", () -> ports(hostId), ports -> ports.size() == 3);
        var engine = engines.engine(hostId).orElseThrow();
        String capture = JsonPath.read(mvc.perform(post("/api/v1/hosts/" + hostId + "/captures").with(operator())
                        .contentType(MediaType.APPLICATION_JSON).content("""
                                {"port": "z-vm-eth1", "direction": "TX", "maxPackets": 1000}"""))
                .andExpect(status().isCreated()).andReturn().getResponse().getContentAsString(), "$.id");

        var first = createVm(hostId, "a-vm");
        String firstNic = vnic(hostId, first, "00:50:56:aa:bb:01");
        assertThat(JsonPath.<Integer>read(firstNic, "$.enginePort")).isEqualTo(3);
        assertThat(JsonPath.<String>read(firstNic, "$.enginePortName")).isEqualTo("a-vm-eth1");
        String secondOfMiddle = vnic(hostId, middle, "00:50:56:aa:bb:04");
        assertThat(JsonPath.<String>read(secondOfMiddle, "$.enginePortName")).isEqualTo("m-vm-eth2");

        await("the new ports in the engine", () -> ports(hostId), ports -> ports.size() == 5);
        assertThat(ports(hostId)).isEqualTo(Map.of(0, "vmnic0", 1, "m-vm-eth1", 2, "z-vm-eth1", 3, "a-vm-eth1",
                4, "m-vm-eth2"));
        assertThat(engines.engine(hostId)).as("the same engine, reconfigured, not rebuilt").containsSame(engine);
        mvc.perform(post("/api/v1/hosts/" + hostId + "/traffic").with(operator())
                        .contentType(MediaType.APPLICATION_JSON).content("""
                                {"nic": "vmnic0", "flows": 10, "packets": 100, "destinationMac": "%s"}"""
                                .formatted(LATE_MAC)))
                .andExpect(status().isCreated());
        await("the 100 frames forwarded to z-vm and captured there",
                () -> responseBody("/api/v1/hosts/" + hostId + "/captures/" + capture),
                c -> c.contains("\"captured\":100"));
        mvc.perform(get("/api/v1/hosts/" + hostId + "/captures/" + capture).with(viewer()))
                .andExpect(jsonPath("$.state").value("RUNNING"));
        assertThat(engines.engine(hostId)).containsSame(engine);

        // the freed id 1 and m-vm's freed eth1 go to the next NICs, lowest first; then 5 after the highest
        String middleNic = JsonPath.read(responseBody("/api/v1/hosts/" + hostId + "/vms/" + middle
                + "/vnics?mac=00:50:56:aa:bb:02"), "$.items[0].id");
        mvc.perform(delete("/api/v1/hosts/" + hostId + "/vms/" + middle + "/vnics/" + middleNic).with(operator())
                        .header("If-Match", "\"0\""))
                .andExpect(status().isNoContent());
        String reused = vnic(hostId, middle, "00:50:56:aa:bb:05");
        assertThat(JsonPath.<Integer>read(reused, "$.enginePort")).isEqualTo(1);
        assertThat(JsonPath.<String>read(reused, "$.enginePortName")).isEqualTo("m-vm-eth1");
        assertThat(JsonPath.<Integer>read(pnic(hostId, "vmnic1"), "$.enginePort")).isEqualTo(5);
        mvc.perform(get("/api/v1/hosts/" + hostId + "/pnics?name=vmnic0").with(viewer()))
                .andExpect(jsonPath("$.items[0].enginePort").value(0));
    }

    @Test
    void nicsCreatedAtOnceOnOneHostGetDistinctIdsAndNames() throws Exception {
        var hostId = createHost("esx-concurrent-ports");
        var vm = createVm(hostId, "web");
        List<Callable<String>> creations = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            int n = i;
            creations.add(() -> n % 3 == 0 ? pnic(hostId, "vmnic" + n)
                    : vnic(hostId, vm, "00:50:56:aa:bb:%02x".formatted(n)));
        }
        List<String> created = new ArrayList<>();
        try (var threads = Executors.newFixedThreadPool(12)) {
            for (var done : threads.invokeAll(creations)) {
                created.add(done.get());
            }
        }
        assertThat(created.stream().map(body -> JsonPath.<Integer>read(body, "$.enginePort")))
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 12).boxed().toList());
        assertThat(created.stream().filter(body -> body.contains("enginePortName"))
                .map(body -> JsonPath.<String>read(body, "$.enginePortName")))
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 8).mapToObj(n -> "web-eth" + n).toList());
    }

    @Test
    void aHostWithEveryPortIdTakenRefusesANewNicNamingTheLimit() throws Exception {
        var hostId = createHost("esx-full");
        var vm = createVm(hostId, "web");
        // every id, written directly: 1,024 NICs through the API would build an engine at each step
        var jdbc = new JdbcTemplate(dataSource);
        jdbc.update("""
                INSERT INTO physical_nic (id, host_id, name, numa_node, speed_mbps, rx_queues, rss, driver_kind,
                                          version, engine_port)
                SELECT gen_random_uuid(), ?, 'vmnic' || p, 0, 1000, 1, false, 'loopback', 0, p
                  FROM generate_series(0, ?) p""", hostId, PortConfig.MAX_PORT_ID);
        mvc.perform(post("/api/v1/hosts/" + hostId + "/vms/" + vm + "/vnics").with(operator())
                        .contentType(MediaType.APPLICATION_JSON).content("""
                                {"mac": "00:50:56:aa:bb:02", "vlan": 0, "adapterType": "VMXNET3", "rxQueues": 1}"""))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail", containsString("ids 0..1023")));
        mvc.perform(post("/api/v1/hosts/" + hostId + "/pnics").with(operator())
                        .contentType(MediaType.APPLICATION_JSON).content("""
                                {"name": "vmnic-new", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                                 "driver": {"kind": "loopback"}}"""))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail", containsString("has 1024 NICs")));
        jdbc.update("DELETE FROM host WHERE id = ?", hostId); // before anything builds its 1,024-port engine
    }

    @Test
    void theUpgradeGivesExistingNicsTheIdsAndNamesOfTheOldSortOrder() throws Exception {
        try (var connection = dataSource.getConnection()) {
            var single = new SingleConnectionDataSource(connection, true);
            var jdbc = new JdbcTemplate(single);
            jdbc.execute("DROP SCHEMA IF EXISTS upgrade_v7_1 CASCADE");
            var upgrade = Flyway.configure().dataSource(single).schemas("upgrade_v7_1")
                    .locations("classpath:db/migration");
            var stable = MigrationVersion.fromVersion("7.1");
            var before = Arrays.stream(upgrade.load().info().all()).map(MigrationInfo::getVersion)
                    .filter(version -> version.compareTo(stable) < 0).max(Comparator.naturalOrder()).orElseThrow();
            upgrade.target(before).load().migrate();
            jdbc.execute("SET search_path TO upgrade_v7_1");
            var host = UUID.randomUUID();
            jdbc.update("INSERT INTO host (id, name, management_address, version) VALUES (?, 'esx', '192.0.2.1', 0)",
                    host);
            for (var name : new String[] {"vmnic1", "vmnic0"}) {
                jdbc.update("""
                        INSERT INTO physical_nic (id, host_id, name, numa_node, speed_mbps, rx_queues, rss, driver_kind,
                                                  version)
                        VALUES (gen_random_uuid(), ?, ?, 0, 1000, 1, false, 'loopback', 0)""",
                        host, name);
            }
            // VMs and MACs inserted out of order: z-vm's two NICs, then a-vm's
            var vms = Map.of("z-vm", UUID.randomUUID(), "a-vm", UUID.randomUUID());
            vms.forEach((name, id) -> jdbc.update(
                    "INSERT INTO vm (id, host_id, name, vcpus, numa_node, version) VALUES (?, ?, ?, 1, 0, 0)",
                    id, host, name));
            for (var nic : new String[][] {{"z-vm", "00:00:00:00:00:09"}, {"z-vm", "00:00:00:00:00:01"},
                    {"a-vm", "00:00:00:00:00:05"}}) {
                jdbc.update("""
                        INSERT INTO virtual_nic (id, vm_id, host_id, mac, vlan, adapter_type, rx_queues, version)
                        VALUES (gen_random_uuid(), ?, ?, ?, 0, 'VMXNET3', 1, 0)""", vms.get(nic[0]), host, nic[1]);
            }
            jdbc.execute("RESET search_path");

            upgrade.target(MigrationVersion.LATEST).load().migrate();
            jdbc.execute("SET search_path TO upgrade_v7_1");
            Map<Integer, String> ports = new TreeMap<>();
            jdbc.query("SELECT engine_port, name FROM physical_nic", rs -> {
                ports.put(rs.getInt(1), rs.getString(2));
            });
            jdbc.query("""
                    SELECT n.engine_port, vm.name || '-eth' || n.port_index || ' ' || n.mac
                      FROM virtual_nic n JOIN vm ON vm.id = n.vm_id""", rs -> {
                ports.put(rs.getInt(1), rs.getString(2));
            });
            jdbc.execute("RESET search_path");
            jdbc.execute("DROP SCHEMA upgrade_v7_1 CASCADE");
            assertThat(ports).isEqualTo(Map.of(0, "vmnic0", 1, "vmnic1", 2, "a-vm-eth1 00:00:00:00:00:05",
                    3, "z-vm-eth1 00:00:00:00:00:01", 4, "z-vm-eth2 00:00:00:00:00:09"));
        }
    }
}
