package io.edp.manager.host.pnic;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

class PhysicalNicApiTest extends ManagerTest {

    private UUID hostId;

    @BeforeEach
    void host() throws Exception {
        hostId = createHost("esx-01");
    }

    @Test
    void createsAnAfPacketNicAndReadsItBack() throws Exception {
        postNic(nic("vmnic0", 1, """
                {"kind": "af_packet", "interfaceName": "veth0"}"""))
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", containsString("/api/v1/hosts/" + hostId + "/pnics/")))
                .andExpect(header().string("ETag", "\"0\""));

        mvc.perform(get(pnics()).with(viewer()))
                .andExpect(jsonPath("$.items[0].name").value("vmnic0"))
                .andExpect(jsonPath("$.items[0].hostId").value(hostId.toString()))
                .andExpect(jsonPath("$.items[0].numaNode").value(1))
                .andExpect(jsonPath("$.items[0].driver.kind").value("af_packet"))
                .andExpect(jsonPath("$.items[0].driver.interfaceName").value("veth0"));
    }

    @Test
    void aNumaNodeTheHostLacksIs400OnNumaNode() throws Exception {
        postNic(nic("vmnic0", 2, "{\"kind\": \"loopback\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("numaNode"))
                .andExpect(jsonPath("$.errors[0].message", containsString("[0, 1]")));
    }

    @Test
    void driverSettingsAreValidatedPerKind() throws Exception {
        postNic(nic("vmnic0", 0, "{\"kind\": \"af_packet\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("driver.interfaceName"));
        postNic(nic("vmnic0", 0, "{\"kind\": \"pcap\", \"inputFile\": \"/tmp/in.pcap\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("driver.outputFile"));
    }

    @Test
    void theMtuDefaultsTo1500AndRunsFrom1280To9216() throws Exception {
        var id = create(pnics(), nic("vmnic0", 0, "{\"kind\": \"loopback\"}"));
        mvc.perform(get(pnics() + "/" + id).with(viewer())).andExpect(jsonPath("$.mtu").value(1500));
        postNic(nic("vmnic1", 0, "{\"kind\": \"loopback\"}, \"mtu\": 9216")).andExpect(status().isCreated())
                .andExpect(jsonPath("$.mtu").value(9216));
        postNic(nic("vmnic2", 0, "{\"kind\": \"loopback\"}, \"mtu\": 1279"))
                .andExpect(status().isBadRequest())
                .andExpect(header().string("Content-Type", "application/problem+json"))
                .andExpect(jsonPath("$.errors[0].field").value("mtu"))
                .andExpect(jsonPath("$.errors[0].message", containsString("1280")));
        postNic(nic("vmnic2", 0, "{\"kind\": \"loopback\"}, \"mtu\": 9217"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("mtu"));
    }

    @Test
    void anUnknownDriverKindIs400() throws Exception {
        postNic(nic("vmnic0", 0, "{\"kind\": \"dpdk\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("dpdk")));
    }

    @Test
    void aDuplicateNameOnTheHostIs409ButAnotherHostMayReuseIt() throws Exception {
        postNic(nic("vmnic0", 0, "{\"kind\": \"loopback\"}")).andExpect(status().isCreated());

        postNic(nic("vmnic0", 1, "{\"kind\": \"loopback\"}")).andExpect(status().isConflict());
        hostId = createHost("esx-02");
        postNic(nic("vmnic0", 0, "{\"kind\": \"loopback\"}")).andExpect(status().isCreated());
    }

    @Test
    void mergePatchSwitchesTheDriverKind() throws Exception {
        var id = create(pnics(), nic("vmnic0", 0, "{\"kind\": \"af_packet\", \"interfaceName\": \"eth1\"}"));

        mvc.perform(patch(pnics() + "/" + id).with(operator()).header("If-Match", "\"0\"").contentType(MERGE_PATCH)
                        .content("""
                                {"driver": {"kind": "pcap", "inputFile": "in.pcap", "outputFile": "out.pcap"},
                                 "rxQueues": 8}"""))
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", "\"1\""))
                .andExpect(jsonPath("$.driver.kind").value("pcap"))
                .andExpect(jsonPath("$.driver.interfaceName").doesNotExist())
                .andExpect(jsonPath("$.driver.outputFile").value("out.pcap"))
                .andExpect(jsonPath("$.rxQueues").value(8))
                .andExpect(jsonPath("$.speedMbps").value(25000));
    }

    @Test
    void listSortsByEachSortParameterInTurn() throws Exception {
        postNic(nic("b", 0, "{\"kind\": \"loopback\"}"));
        postNic(nic("a", 0, "{\"kind\": \"loopback\"}"));
        postNic(nic("c", 1, "{\"kind\": \"loopback\"}"));

        mvc.perform(get(pnics() + "?sort=numaNode,desc&sort=name").with(viewer()))
                .andExpect(jsonPath("$.items[*].name", contains("c", "a", "b")));
    }

    @Test
    void theIdBreaksTiesSoThatTheOrderIsStable() throws Exception {
        var ids = new java.util.ArrayList<String>();
        for (var name : new String[] {"a", "b", "c", "d"}) {
            ids.add(create(pnics(), nic(name, 0, "{\"kind\": \"loopback\"}")).toString());
        }
        ids.sort(null); // PostgreSQL orders uuids like their lower-case text

        mvc.perform(get(pnics() + "?sort=speedMbps").with(viewer()))
                .andExpect(jsonPath("$.items[*].id", contains(ids.toArray())));
    }

    @Test
    void aNicOfAnotherHostIs404() throws Exception {
        var id = create(pnics(), nic("vmnic0", 0, "{\"kind\": \"loopback\"}"));
        var other = createHost("esx-02");

        mvc.perform(get("/api/v1/hosts/" + other + "/pnics/" + id).with(viewer())).andExpect(status().isNotFound());
    }

    private String pnics() {
        return "/api/v1/hosts/" + hostId + "/pnics";
    }

    private static String nic(String name, int numaNode, String driver) {
        return """
                {"name": "%s", "numaNode": %d, "speedMbps": 25000, "rxQueues": 4, "rss": true, "driver": %s}"""
                .formatted(name, numaNode, driver);
    }

    private ResultActions postNic(String json) throws Exception {
        return mvc.perform(org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post(pnics())
                .with(operator()).contentType(MediaType.APPLICATION_JSON).content(json));
    }
}
