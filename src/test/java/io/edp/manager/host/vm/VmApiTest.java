package io.edp.manager.host.vm;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

class VmApiTest extends ManagerTest {

    private UUID hostId;

    @BeforeEach
    void host() throws Exception {
        hostId = createHost("esx-01");
    }

    @Test
    void createsReadsAndReplacesAVm() throws Exception {
        var id = createVm(hostId, "web");

        mvc.perform(put(vms() + "/" + id).with(operator()).header("If-Match", "\"0\"")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"web\", \"vcpus\": 8, \"numaNode\": 1}"))
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", "\"1\""));
        mvc.perform(get(vms() + "/" + id).with(viewer()))
                .andExpect(jsonPath("$.vcpus").value(8))
                .andExpect(jsonPath("$.numaNode").value(1));
    }

    @Test
    void aNumaNodeTheHostLacksIs400() throws Exception {
        mvc.perform(post(vms()).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"web\", \"vcpus\": 2, \"numaNode\": 5}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("numaNode"));
    }

    @Test
    void aDuplicateNameOnTheHostIs409() throws Exception {
        createVm(hostId, "web");

        mvc.perform(post(vms()).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"web\", \"vcpus\": 2, \"numaNode\": 0}"))
                .andExpect(status().isConflict());
    }

    @Test
    void deletingAVmDeletesItsVirtualNics() throws Exception {
        var id = createVm(hostId, "web");
        create(vms() + "/" + id + "/vnics", """
                {"mac": "00:50:56:aa:bb:01", "vlan": 0, "adapterType": "E1000", "rxQueues": 1}""");

        mvc.perform(delete(vms() + "/" + id).with(operator())).andExpect(status().isNoContent());

        assertThat(rows("virtual_nic")).isZero();
        mvc.perform(get(vms() + "/" + id + "/vnics").with(viewer())).andExpect(status().isNotFound());
    }

    private String vms() {
        return "/api/v1/hosts/" + hostId + "/vms";
    }
}
