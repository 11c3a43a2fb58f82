package io.edp.manager.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

class HostApiTest extends ManagerTest {

    @Test
    void createAnswers201WithLocationETagAndTheHost() throws Exception {
        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content(hostJson("esx-01")))
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", containsString("/api/v1/hosts/")))
                .andExpect(header().string("ETag", "\"0\""))
                .andExpect(jsonPath("$.name").value("esx-01"))
                .andExpect(jsonPath("$.numaNodes[1].cpuCores[3]").value(7))
                .andExpect(jsonPath("$.labels.rack").value("r12"))
                .andExpect(jsonPath("$.version").value(0));
    }

    @Test
    void locationAddressesTheCreatedHost() throws Exception {
        var location = mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content(hostJson("esx-01")))
                .andReturn().getResponse().getHeader("Location");

        mvc.perform(get(location).with(viewer()))
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", "\"0\""))
                .andExpect(jsonPath("$.name").value("esx-01"));
    }

    @Test
    void putWithTheCurrentETagReplacesTheHostAndBumpsItsVersion() throws Exception {
        var id = createHost("esx-01");

        mvc.perform(put("/api/v1/hosts/" + id).with(operator()).header("If-Match", "\"0\"")
                        .contentType(MediaType.APPLICATION_JSON).content("""
                                {"name": "esx-01", "managementAddress": "esx-01.lab",
                                 "numaNodes": [{"id": 0, "cpuCores": [0, 1]}]}"""))
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", "\"1\""))
                .andExpect(jsonPath("$.managementAddress").value("esx-01.lab"))
                .andExpect(jsonPath("$.numaNodes", hasSize(1)))
                .andExpect(jsonPath("$.labels").isEmpty());
    }

    @Test
    void aGetResponseCanBeSentBackAsAPut() throws Exception {
        var id = createHost("esx-01");
        var current = mvc.perform(get("/api/v1/hosts/" + id).with(viewer()))
                .andReturn().getResponse().getContentAsString();

        mvc.perform(put("/api/v1/hosts/" + id).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content(current.replace("192.0.2.11", "192.0.2.12")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.managementAddress").value("192.0.2.12"))
                .andExpect(jsonPath("$.id").value(id.toString()));
    }

    @Test
    void repeatingAPutKeepsTheVersion() throws Exception {
        var id = createHost("esx-01");

        for (int i = 0; i < 2; i++) {
            mvc.perform(put("/api/v1/hosts/" + id).with(operator()).header("If-Match", "\"0\"")
                            .contentType(MediaType.APPLICATION_JSON).content(hostJson("esx-01")))
                    .andExpect(status().isOk())
                    .andExpect(header().string("ETag", "\"0\""));
        }
    }

    @Test
    void putWithAStaleETagIs412AndChangesNothing() throws Exception {
        var id = createHost("esx-01");
        mvc.perform(patch("/api/v1/hosts/" + id).with(operator()).contentType(MERGE_PATCH)
                .content("{\"managementAddress\": \"10.0.0.1\"}")).andExpect(status().isOk());

        mvc.perform(put("/api/v1/hosts/" + id).with(operator()).header("If-Match", "\"0\"")
                        .contentType(MediaType.APPLICATION_JSON).content(hostJson("esx-99")))
                .andExpect(status().isPreconditionFailed())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(412))
                .andExpect(jsonPath("$.detail", containsString("\"1\"")));
        mvc.perform(get("/api/v1/hosts/" + id).with(viewer()))
                .andExpect(jsonPath("$.name").value("esx-01"));
    }

    @Test
    void mergePatchChangesOnlyWhatItNamesAndNullRemovesALabel() throws Exception {
        var id = createHost("esx-01");

        mvc.perform(patch("/api/v1/hosts/" + id).with(operator()).header("If-Match", "\"0\"")
                        .contentType(MERGE_PATCH).content("""
                                {"labels": {"rack": null, "role": "edge"}, "managementAddress": "10.0.0.7"}"""))
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", "\"1\""))
                .andExpect(jsonPath("$.name").value("esx-01"))
                .andExpect(jsonPath("$.managementAddress").value("10.0.0.7"))
                .andExpect(jsonPath("$.numaNodes", hasSize(2)))
                .andExpect(jsonPath("$.labels.rack").doesNotExist())
                .andExpect(jsonPath("$.labels.role").value("edge"));
    }

    @Test
    void mergePatchResultIsValidatedLikeAPut() throws Exception {
        var id = createHost("esx-01");

        mvc.perform(patch("/api/v1/hosts/" + id).with(operator()).contentType(MERGE_PATCH)
                        .content("{\"numaNodes\": [], \"name\": \"bad name\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("name", "numaNodes")));
    }

    @Test
    void aDuplicateNameIs409() throws Exception {
        createHost("esx-01");

        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content(hostJson("esx-01")))
                .andExpect(status().isConflict())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail", containsString("esx-01")));
    }

    @Test
    void renamingOntoAnotherHostsNameIs409() throws Exception {
        createHost("esx-01");
        var id = createHost("esx-02");

        mvc.perform(patch("/api/v1/hosts/" + id).with(operator()).contentType(MERGE_PATCH)
                        .content("{\"name\": \"esx-01\"}"))
                .andExpect(status().isConflict());
    }

    @Test
    void invalidFieldsAreListedOneByOne() throws Exception {
        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON).content("""
                        {"name": "", "managementAddress": "192.0.2.1",
                         "numaNodes": [{"id": -1, "cpuCores": []}], "labels": {"bad key!": "x"}}"""))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.errors[?(@.field == 'name')]").exists())
                .andExpect(jsonPath("$.errors[?(@.field == 'numaNodes[0].id')]").exists())
                .andExpect(jsonPath("$.errors[?(@.field == 'numaNodes[0].cpuCores')]").exists())
                .andExpect(jsonPath("$.errors[?(@.field =~ /labels.*/)]").exists());
    }

    @Test
    void aCpuCoreInTwoNumaNodesIsRejected() throws Exception {
        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON).content("""
                        {"name": "esx-01", "managementAddress": "192.0.2.1",
                         "numaNodes": [{"id": 0, "cpuCores": [0, 1]}, {"id": 1, "cpuCores": [1, 2]}]}"""))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("numaNodes[1].cpuCores"))
                .andExpect(jsonPath("$.errors[0].message", containsString("CPU core 1")));
    }

    @Test
    void removingANumaNodeThatAVmUsesIs409() throws Exception {
        var id = createHost("esx-01");
        create("/api/v1/hosts/" + id + "/vms", "{\"name\": \"web\", \"vcpus\": 2, \"numaNode\": 1}");

        mvc.perform(patch("/api/v1/hosts/" + id).with(operator()).contentType(MERGE_PATCH)
                        .content("{\"numaNodes\": [{\"id\": 0, \"cpuCores\": [0]}]}"))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail", containsString("[1]")));
    }

    @Test
    void listIsPagedSortedAndStable() throws Exception {
        for (var name : new String[] {"c", "a", "d", "b", "e"}) {
            createHost(name);
        }

        mvc.perform(get("/api/v1/hosts?size=2&page=1&sort=name,desc").with(viewer()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items[*].name", contains("c", "b")))
                .andExpect(jsonPath("$.page.number").value(1))
                .andExpect(jsonPath("$.page.size").value(2))
                .andExpect(jsonPath("$.page.totalElements").value(5))
                .andExpect(jsonPath("$.page.totalPages").value(3));
    }

    @Test
    void sortingByAnUnlistedPropertyIs400() throws Exception {
        mvc.perform(get("/api/v1/hosts?sort=version").with(viewer()))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("sort"))
                .andExpect(jsonPath("$.errors[0].message", containsString("managementAddress")));
    }

    @Test
    void aPageSizeAboveTheMaximumIs400() throws Exception {
        mvc.perform(get("/api/v1/hosts?size=101").with(viewer()))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("size"));
    }

    @Test
    void deletingAHostDeletesItsNicsVmsAndVirtualNics() throws Exception {
        var id = createHost("esx-01");
        create("/api/v1/hosts/" + id + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 4, "rss": true,
                 "driver": {"kind": "loopback"}}""");
        var vm = createVm(id, "web");
        create("/api/v1/hosts/" + id + "/vms/" + vm + "/vnics", """
                {"mac": "00:50:56:aa:bb:01", "vlan": 10, "adapterType": "VMXNET3", "rxQueues": 1}""");

        mvc.perform(delete("/api/v1/hosts/" + id).with(operator()).header("If-Match", "\"0\""))
                .andExpect(status().isNoContent());

        mvc.perform(get("/api/v1/hosts/" + id).with(viewer())).andExpect(status().isNotFound());
        for (var table : new String[] {"physical_nic", "vm", "virtual_nic", "host_numa_node", "host_label"}) {
            assertThat(rows(table)).as(table).isZero();
        }
    }

    @Test
    void deleteWithAStaleETagIs412() throws Exception {
        var id = createHost("esx-01");

        mvc.perform(delete("/api/v1/hosts/" + id).with(operator()).header("If-Match", "\"7\""))
                .andExpect(status().isPreconditionFailed());
        mvc.perform(get("/api/v1/hosts/" + id).with(viewer())).andExpect(status().isOk());
    }
}
