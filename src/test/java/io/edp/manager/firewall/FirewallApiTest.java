package io.edp.manager.firewall;

import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

class FirewallApiTest extends ManagerTest {

    private static final String RULES = "/api/v1/firewall/rules";

    @Test
    void everyBadFieldIsListed() throws Exception {
        mvc.perform(post(RULES).with(operator()).contentType(MediaType.APPLICATION_JSON).content("""
                        {"name": "bad", "priority": 1, "source": "10.0.0.300/8", "destination": "fd00::/129",
                         "protocol": "SCTP", "destinationPorts": "90-80", "action": "BLOCK"}"""))
                .andExpect(status().isBadRequest())
                .andExpect(header().string("Content-Type", "application/problem+json"))
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("source", "destination", "protocol",
                        "destinationPorts", "action")));
    }

    @Test
    void portsNeedTcpOrUdpAndFamiliesMustAgree() throws Exception {
        mvc.perform(post(RULES).with(operator()).contentType(MediaType.APPLICATION_JSON).content("""
                        {"name": "bad", "priority": 1, "source": "10.0.0.0/8", "destination": "fd00::/64",
                         "protocol": "ICMP", "sourcePorts": "80", "action": "DROP"}"""))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("destination", "sourcePorts")));
    }

    @Test
    void everyChangeBumpsEveryHostButAnIdenticalPutDoesNot() throws Exception {
        var hosts = List.of(createHost("esx-01"), createHost("esx-02"));
        var before = desiredGenerations(hosts);
        var rule = """
                {"name": "web", "priority": 5, "source": "any", "destination": "10.1.0.0/16", "protocol": "tcp",
                 "destinationPorts": "443", "action": "ALLOW", "appliedTo": ["00:50:56:AA:BB:01"]}""";
        int id = JsonPath.read(created(RULES, rule), "$.id");

        mvc.perform(get(RULES + "/" + id).with(viewer()))
                .andExpect(jsonPath("$.protocol").value("TCP"))
                .andExpect(jsonPath("$.appliedTo[0]").value("00:50:56:aa:bb:01"));
        assertThat(desiredGenerations(hosts)).containsExactly(before.get(0) + 1, before.get(1) + 1);

        mvc.perform(put(RULES + "/" + id).with(operator()).header("If-Match", "\"0\"")
                        .contentType(MediaType.APPLICATION_JSON).content(rule))
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", "\"0\""));
        assertThat(desiredGenerations(hosts)).containsExactly(before.get(0) + 1, before.get(1) + 1);
    }

    @Test
    void rulesListInEvaluationOrder() throws Exception {
        created(RULES, rule("late", 20));
        created(RULES, rule("early", 10));

        mvc.perform(get(RULES).with(viewer()))
                .andExpect(jsonPath("$.items[0].name").value("early"))
                .andExpect(jsonPath("$.items[1].name").value("late"));
    }

    @Test
    void routesAreValidatedAndBumpEveryHost() throws Exception {
        var host = createHost("esx-01");
        long before = desiredGenerations(List.of(host)).getFirst();
        mvc.perform(post("/api/v1/routing/routes").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"prefix\": \"10.128.0.0/33\", \"nextHopMac\": \"nope\", \"output\": \"vmnic1\","
                                + " \"vlan\": 5000}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("vlan")));
        mvc.perform(post("/api/v1/routing/routes").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"prefix\": \"10.128.0.0/33\", \"nextHopMac\": \"nope\", \"output\": \"vmnic1\","
                                + " \"vlan\": 20}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("prefix", "nextHopMac")));

        created("/api/v1/routing/routes", """
                {"prefix": "10.128.0.0/16", "nextHopMac": "02:00:00:00:00:FE", "output": "vmnic1", "vlan": 20}""");

        assertThat(desiredGenerations(List.of(host))).containsExactly(before + 1);
    }

    private static String rule(String name, int priority) {
        return """
                {"name": "%s", "priority": %d, "source": "any", "destination": "any", "protocol": "ANY",
                 "action": "ALLOW"}""".formatted(name, priority);
    }
}
