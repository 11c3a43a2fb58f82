package io.edp.manager.realization;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.edp.manager.ManagerTest;
import org.springframework.http.MediaType;

/** Helpers of the tests that drive hosts through realization: inventory, EDP settings, polling the status. */
abstract class RealizationTest extends ManagerTest {

    static final String WEB_MAC = "00:50:56:aa:bb:01";
    static final String DB_MAC = "00:50:56:aa:bb:02";

    /** A host with a loopback physical NIC (2 RX queues, NUMA node 0) and two VMs with one VMXNET3 vNIC each. */
    UUID createHostWithNicAndTwoVms(String name) throws Exception {
        var hostId = createHost(name);
        create("/api/v1/hosts/" + hostId + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 2, "rss": true,
                 "driver": {"kind": "loopback"}}""");
        for (var vm : new String[][] {{"web", WEB_MAC}, {"db", DB_MAC}}) {
            var vmId = createVm(hostId, vm[0]);
            create("/api/v1/hosts/" + hostId + "/vms/" + vmId + "/vnics", """
                    {"mac": "%s", "vlan": 0, "adapterType": "VMXNET3", "rxQueues": 1}""".formatted(vm[1]));
        }
        return hostId;
    }

    /** PUTs the host's EDP settings and returns the desired generation that the change produced. */
    long setEdp(UUID hostId, String settingsJson) throws Exception {
        mvc.perform(put("/api/v1/hosts/" + hostId + "/edp").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"settings\": " + settingsJson + "}"))
                .andExpect(status().isOk());
        return desiredGeneration(hostId);
    }

    long desiredGeneration(UUID hostId) throws Exception {
        return realization(hostId).read("$.desiredGeneration", Long.class);
    }

    DocumentContext realization(UUID hostId) throws Exception {
        return json("/api/v1/hosts/" + hostId + "/realization");
    }

    /** Waits until the host's engine runs {@code generation} (or later) and the status says SUCCESS. */
    DocumentContext awaitRealized(UUID hostId, long generation) throws Exception {
        return await("host " + hostId + " to realize generation " + generation,
                () -> realization(hostId),
                status -> status.read("$.realizedGeneration", Long.class) >= generation
                        && status.read("$.state").equals("SUCCESS"));
    }

    DocumentContext json(String path) throws Exception {
        return JsonPath.parse(performCompleted(get(path).with(viewer())).andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString());
    }

    DocumentContext postJson(String path, String body) throws Exception {
        return JsonPath.parse(mvc.perform(post(path).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content(body))
                .andExpect(status().is2xxSuccessful())
                .andReturn().getResponse().getContentAsString());
    }
}
