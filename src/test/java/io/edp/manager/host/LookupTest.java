package io.edp.manager.host;

import static org.hamcrest.Matchers.contains;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.List;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

/** Lists find a resource by its natural key, and a duplicate names the resource it clashes with. */
class LookupTest extends ManagerTest {

    @Test
    void hostsAreFoundByNameAndSelectedByLabels() throws Exception {
        var web = create("/api/v1/hosts", hostWithLabels("esx-web", "\"rack\": \"r12\", \"tier\": \"web\""));
        create("/api/v1/hosts", hostWithLabels("esx-db", "\"rack\": \"r12\", \"tier\": \"db\""));
        create("/api/v1/hosts", hostWithLabels("esx-bare", ""));

        hosts("name=esx-web").andExpect(jsonPath("$.items.length()").value(1))
                .andExpect(jsonPath("$.items[0].id").value(web.toString()));
        hosts("name=esx-nope").andExpect(jsonPath("$.items.length()").value(0));
        hosts("name=ESX-WEB").andExpect(jsonPath("$.items.length()").value(0)); // exact
        hosts("label=rack=r12").andExpect(jsonPath("$.page.totalElements").value(2));
        hosts("label=rack").andExpect(jsonPath("$.page.totalElements").value(2));
        hosts("label=rack=r12&label=tier=web").andExpect(jsonPath("$.items.length()").value(1))
                .andExpect(jsonPath("$.items[0].name").value("esx-web"));
        hosts("label=rack=r13").andExpect(jsonPath("$.items.length()").value(0));
        mvc.perform(get("/api/v1/hosts?label==r12").with(viewer())).andExpect(status().isBadRequest());
    }

    @Test
    void aDuplicateNameNamesTheExistingResourceSoAClientCanAdoptIt() throws Exception {
        var existing = createHost("esx-01");
        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content(hostJson("esx-01")))
                .andExpect(status().isConflict())
                .andExpect(header().string("Location", "/api/v1/hosts/" + existing))
                .andExpect(jsonPath("$.existing").value("/api/v1/hosts/" + existing));

        var vm = createVm(existing, "web");
        mvc.perform(post("/api/v1/hosts/" + existing + "/vms").with(operator())
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"web\", \"vcpus\": 1, \"numaNode\": 0}"))
                .andExpect(status().isConflict())
                .andExpect(header().string("Location", "/api/v1/hosts/" + existing + "/vms/" + vm));

        String rule = """
                {"name": "%s", "priority": 10, "source": "any", "destination": "any", "protocol": "TCP",
                 "destinationPorts": "23", "action": "DROP"}""";
        var telnet = "/api/v1/firewall/rules/" + JsonPath.read(created("/api/v1/firewall/rules",
                rule.formatted("block-telnet")), "$.id");
        var other = "/api/v1/firewall/rules/" + JsonPath.read(created("/api/v1/firewall/rules",
                rule.formatted("block-other")), "$.id");
        mvc.perform(post("/api/v1/firewall/rules").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content(rule.formatted("block-telnet")))
                .andExpect(status().isConflict())
                .andExpect(header().string("Location", telnet))
                .andExpect(jsonPath("$.existing").value(telnet));
        mvc.perform(put(other).with(operator()).header("If-Match", "\"0\"")
                        .contentType(MediaType.APPLICATION_JSON).content(rule.formatted("block-telnet")))
                .andExpect(status().isConflict()).andExpect(jsonPath("$.existing").value(telnet));

        created("/api/v1/edp-profiles", "{\"name\": \"lab\", \"settings\": {}}");
        mvc.perform(post("/api/v1/edp-profiles").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"lab\", \"settings\": {}}"))
                .andExpect(status().isConflict())
                .andExpect(header().string("Location", "/api/v1/edp-profiles/lab"));
    }

    @Test
    void nicsAndVmsAreFoundByNameAndVirtualNicsByMac() throws Exception {
        var hostId = createHost("esx-01");
        create("/api/v1/hosts/" + hostId + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""");
        var vm = createVm(hostId, "web");
        createVm(hostId, "db");
        var nic = create("/api/v1/hosts/" + hostId + "/vms/" + vm + "/vnics", """
                {"mac": "00:50:56:aa:bb:01", "vlan": 0, "adapterType": "VMXNET3", "rxQueues": 1}""");

        list("/api/v1/hosts/" + hostId + "/pnics?name=vmnic0").andExpect(jsonPath("$.items.length()").value(1));
        list("/api/v1/hosts/" + hostId + "/pnics?name=vmnic1").andExpect(jsonPath("$.items.length()").value(0));
        list("/api/v1/hosts/" + hostId + "/vms?name=db").andExpect(jsonPath("$.items.length()").value(1))
                .andExpect(jsonPath("$.items[0].name").value("db"));
        list("/api/v1/hosts/" + hostId + "/vms/" + vm + "/vnics?mac=00:50:56:AA:BB:01")
                .andExpect(jsonPath("$.items.length()").value(1))
                .andExpect(jsonPath("$.items[0].id").value(nic.toString()));
        list("/api/v1/hosts/" + hostId + "/vms/" + vm + "/vnics?mac=00:50:56:aa:bb:02")
                .andExpect(jsonPath("$.items.length()").value(0));
    }

    @Test
    void globalListsFilterByTheirKeysAndHonourTheSortTheyAccept() throws Exception {
        for (int i = 0; i < 3; i++) {
            created("/api/v1/firewall/rules", """
                    {"name": "%s", "priority": %d, "source": "any", "destination": "any", "protocol": "TCP",
                     "destinationPorts": "%d", "action": "DROP"}""".formatted("block-" + i, 10 + i,
                    23 + i));
            created("/api/v1/routing/routes", """
                    {"prefix": "10.%d.0.0/16", "nextHopMac": "02:00:00:00:00:fe", "output": "vmnic%d", "vlan": 20}"""
                    .formatted(i, i % 2));
        }
        created("/api/v1/edp-profiles", "{\"name\": \"enterprise\", \"settings\": {}}");
        created("/api/v1/edp-profiles", "{\"name\": \"lab\", \"settings\": {}}");

        list("/api/v1/firewall/rules?name=block-2").andExpect(jsonPath("$.items[*].priority").value(
                contains(12)));
        list("/api/v1/firewall/rules?sort=priority,desc").andExpect(jsonPath("$.items[*].priority").value(
                contains(12, 11, 10)));
        list("/api/v1/routing/routes?output=vmnic0&sort=prefix,desc").andExpect(jsonPath("$.items[*].prefix").value(
                contains("10.2.0.0/16", "10.0.0.0/16")));
        list("/api/v1/routing/routes?prefix=10.1.0.0/16").andExpect(jsonPath("$.page.totalElements").value(1));
        list("/api/v1/edp-profiles?name=lab").andExpect(jsonPath("$.items[*].name").value(
                contains("lab")));
        list("/api/v1/edp-profiles?sort=name,desc").andExpect(jsonPath("$.items[*].name").value(
                contains("lab", "enterprise")));
        createHost("esx-a");
        createHost("esx-b");
        var ascending = JsonPath.<List<String>>read(list("/api/v1/realization").andReturn().getResponse()
                .getContentAsString(), "$.items[*].hostId");
        list("/api/v1/realization?sort=hostId,desc").andExpect(jsonPath("$.items[*].hostId").value(
                contains(ascending.reversed().toArray())));
    }

    private ResultActions hosts(String query) throws Exception {
        return list("/api/v1/hosts?" + query);
    }

    private ResultActions list(String path) throws Exception {
        return mvc.perform(get(path).with(viewer())).andExpect(status().isOk());
    }

    private static String hostWithLabels(String name, String labels) {
        return """
                {"name": "%s", "managementAddress": "192.0.2.11", "numaNodes": [{"id": 0, "cpuCores": [0, 1]}],
                 "labels": {%s}}""".formatted(name, labels);
    }
}
