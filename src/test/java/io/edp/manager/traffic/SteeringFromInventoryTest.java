package io.edp.manager.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * A loopback physical NIC steers frames as the hardware does (docs/tlb.md): a VM's MAC + VLAN has a NetQueue filter
 * to a queue of its own, and with RSS on the NIC's queues form one Shared NetQueue RSS pool that spreads flows.
 */
class SteeringFromInventoryTest extends ManagerTest {

    private static final String VM_MAC = "00:50:56:aa:bb:01";
    private static final int UPLINK_PORT = 0; // physical NICs are the engine's first ports

    @Test
    void withRssOffAVmsTrafficLandsOnItsOwnQueue() throws Exception {
        var queues = uplinkQueuePackets(hostWithOneVm("esx-netqueue", false));

        assertThat(queues).as("packets per RX queue of vmnic0").hasSize(4);
        assertThat(queues.get(0)).as("the default queue").isZero();
        assertThat(queues.stream().filter(packets -> packets > 0)).as("one dedicated queue").hasSize(1);
    }

    @Test
    void withRssOnAVmsFlowsSpreadOverThePool() throws Exception {
        var queues = uplinkQueuePackets(hostWithOneVm("esx-rss", true));

        assertThat(queues.stream().filter(packets -> packets > 0)).as("queues that received flows")
                .hasSizeGreaterThan(1);
    }

    private UUID hostWithOneVm(String name, boolean rss) throws Exception {
        var hostId = createHost(name);
        create("/api/v1/hosts/" + hostId + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 4, "rss": %s,
                 "driver": {"kind": "loopback"}}""".formatted(rss));
        var vmId = createVm(hostId, "web");
        create("/api/v1/hosts/" + hostId + "/vms/" + vmId + "/vnics", """
                {"mac": "%s", "vlan": 0, "adapterType": "VMXNET3", "rxQueues": 1}""".formatted(VM_MAC));
        // the filters are built from the vNICs the engine knows: send only once the vNIC is realized
        await("the host's configuration to be realized", () -> realization(hostId),
                status -> "SUCCESS".equals(status.get("state"))
                        && status.get("realizedGeneration").equals(status.get("desiredGeneration")));
        return hostId;
    }

    /** Sends 64 flows to the VM until 2,000 frames arrived on vmnic0; returns the packets of each of its queues. */
    private List<Long> uplinkQueuePackets(UUID hostId) throws Exception {
        mvc.perform(post("/api/v1/hosts/" + hostId + "/traffic").with(operator())
                        .contentType(MediaType.APPLICATION_JSON).content("""
                                {"nic": "vmnic0", "flows": 64, "packetsPerSecond": 20000, "destinationMac": "%s"}"""
                                .formatted(VM_MAC)))
                .andExpect(status().isCreated());
        var queues = await("2,000 frames on vmnic0", () -> queuePackets(hostId),
                packets -> packets.stream().mapToLong(Long::longValue).sum() >= 2_000);
        mvc.perform(delete("/api/v1/hosts/" + hostId + "/traffic").with(operator())).andExpect(status().isOk());
        return queues;
    }

    private List<Long> queuePackets(UUID hostId) throws Exception {
        var body = mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/nic-queues").with(viewer()))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
        List<Number> packets = JsonPath.read(body,
                "$.queues[?(@.port == " + UPLINK_PORT + ")].packets");
        return packets.stream().map(Number::longValue).toList();
    }

    private Map<String, Object> realization(UUID hostId) throws Exception {
        var body = performCompleted(get("/api/v1/hosts/" + hostId + "/realization").with(viewer()))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
        return JsonPath.read(body, "$");
    }
}
