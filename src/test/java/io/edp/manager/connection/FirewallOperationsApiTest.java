package io.edp.manager.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.ArrayList;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;

/**
 * Firewall operations through the real manager: rule counters per host, across hosts and in Prometheus (kept by a
 * push that keeps the rule), the connection table's use, and a host's connections listed, paged, filtered and
 * cleared one by one or by filter.
 */
class FirewallOperationsApiTest extends ManagerTest {

    private static final String RULES = "/api/v1/firewall/rules";

    @Test
    void ruleCountersConnectionsAndTheirClearingFollowTheTraffic() throws Exception {
        int rule = JsonPath.read(created(RULES, """
                {"name": "udp-in", "priority": 10, "source": "10.0.0.0/24", "destination": "any", "protocol": "udp",
                 "action": "ALLOW"}"""), "$.id");
        var hostId = hostWithAVm("esx-fw");
        putEdp(hostId, "{\"settings\": {\"mode\": \"EDP_STANDARD\"}}").andExpect(status().isOk());
        sendTenThousandFramesToTheVm(hostId); // 100 UDP flows 10.0.0.i:1024+i → 10.128.0.1:5001, 100 frames each

        long rxBytes = JsonPath.<List<Number>>read(responseBody("/api/v1/hosts/" + hostId + "/stats/nic-queues"),
                "$.ports[*].rxBytes").stream().mapToLong(Number::longValue).sum(); // every frame came in on vmnic0
        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/firewall-rules").with(viewer()))
                .andExpect(jsonPath("$.takenAt").exists())
                .andExpect(jsonPath("$.rules[0].ruleId").value(rule))
                .andExpect(jsonPath("$.rules[0].packets").value(10_000))
                .andExpect(jsonPath("$.rules[0].bytes").value(rxBytes))
                .andExpect(jsonPath("$.rules[0].connections").value(100));
        mvc.perform(get(RULES + "/" + rule + "/stats").with(viewer()))
                .andExpect(jsonPath("$.packets").value(10_000))
                .andExpect(jsonPath("$.connections").value(100))
                .andExpect(jsonPath("$.hosts.length()").value(1))
                .andExpect(jsonPath("$.hosts[0].hostId").value(hostId));
        mvc.perform(get(RULES + "/999999/stats").with(viewer())).andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/connections").with(viewer()))
                .andExpect(jsonPath("$.capacity").value(65_536))
                .andExpect(jsonPath("$.entries").value(100))
                .andExpect(jsonPath("$.states.ACTIVE").value(100));
        var prometheus = responseBody("/actuator/prometheus");
        assertThat(prometheus).contains("edp_firewall_rule_packets_total{host=\"esx-fw\",host_id=\"" + hostId
                + "\",rule=\"" + rule + "\"} 10000");
        assertThat(prometheus).contains("edp_conntrack_entries{host=\"esx-fw\",host_id=\"" + hostId + "\"} 100");

        // a push that keeps the rule keeps its counts; the new rule gets its meters
        int other = JsonPath.read(created(RULES, """
                {"name": "tcp-in", "priority": 20, "source": "any", "destination": "any", "protocol": "tcp",
                 "action": "DROP"}"""), "$.id");
        await("the host to run both rules", () -> responseBody("/api/v1/hosts/" + hostId + "/stats/firewall-rules"),
                body -> JsonPath.<List<Integer>>read(body, "$.rules[*].ruleId").size() == 2);
        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/firewall-rules").with(viewer()))
                .andExpect(jsonPath("$.rules[0].packets").value(10_000))
                .andExpect(jsonPath("$.rules[1].ruleId").value(other))
                .andExpect(jsonPath("$.rules[1].packets").value(0));
        assertThat(responseBody("/actuator/prometheus")).contains("edp_firewall_rule_packets_total{host=\"esx-fw\","
                + "host_id=\"" + hostId + "\",rule=\"" + other + "\"} 0");

        var connections = "/api/v1/hosts/" + hostId + "/connections";
        List<String> ids = new ArrayList<>();
        for (int page = 0; page < 4; page++) {
            ids.addAll(JsonPath.read(responseBody(connections + "?size=30&page=" + page), "$.items[*].id"));
        }
        assertThat(ids).hasSize(100).doesNotHaveDuplicates().isSorted().contains("17-10.0.0.5-1029-10.128.0.1-5001");
        mvc.perform(get(connections + "?address=10.0.0.5").with(viewer()))
                .andExpect(jsonPath("$.page.totalElements").value(1))
                .andExpect(jsonPath("$.items[0].source").value("10.0.0.5"))
                .andExpect(jsonPath("$.items[0].sourcePort").value(1029))
                .andExpect(jsonPath("$.items[0].destinationPort").value(5001))
                .andExpect(jsonPath("$.items[0].state").value("ACTIVE"))
                .andExpect(jsonPath("$.items[0].ruleId").value(rule));
        mvc.perform(get(connections + "?port=5001&protocol=UDP&state=ACTIVE").with(viewer()))
                .andExpect(jsonPath("$.page.totalElements").value(100));
        mvc.perform(get(connections + "?protocol=TCP").with(viewer()))
                .andExpect(jsonPath("$.page.totalElements").value(0));
        mvc.perform(get(connections + "?address=nope&port=70000").with(viewer()))
                .andExpect(status().isBadRequest());

        mvc.perform(delete(connections + "/17-10.0.0.5-1029-10.128.0.1-5001").with(operator()))
                .andExpect(status().isNoContent());
        mvc.perform(delete(connections + "/17-10.0.0.5-1029-10.128.0.1-5001").with(operator()))
                .andExpect(status().isNotFound());
        mvc.perform(delete(connections + "/not-a-connection").with(operator()))
                .andExpect(status().isBadRequest());
        mvc.perform(delete(connections + "/17-10.0.0.6-1030-10.128.0.1-5001").with(viewer()))
                .andExpect(status().isForbidden());
        mvc.perform(delete(connections + "?address=10.0.0.0/28").with(operator()))
                .andExpect(jsonPath("$.cleared").value(15));
        mvc.perform(delete(connections).with(operator())).andExpect(jsonPath("$.cleared").value(84));
        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/connections").with(viewer()))
                .andExpect(jsonPath("$.entries").value(0));
        mvc.perform(get(RULES + "/" + rule + "/stats").with(viewer()))
                .andExpect(jsonPath("$.connections").value(100));

        mvc.perform(delete("/api/v1/hosts/" + hostId).with(operator())).andExpect(status().isNoContent());
        await("the host's metrics to go", () -> responseBody("/actuator/prometheus"),
                metrics -> !metrics.contains(hostId));
    }
}
