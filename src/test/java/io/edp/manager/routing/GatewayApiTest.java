package io.edp.manager.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.List;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.ManagerTest;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.engines.HostEngines;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

/**
 * Segment gateways: validated like the engine validates them, one per VLAN, pushed to every host; and the NIC MTU
 * the router answers a routed packet too big for with fragmentation needed from them.
 */
class GatewayApiTest extends ManagerTest {

    private static final String GATEWAYS = "/api/v1/routing/gateways";

    @Autowired
    HostEngines engines;

    @Test
    void everyBadFieldIsListedAsAProblem() throws Exception {
        mvc.perform(post(GATEWAYS).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"vlan\": 5000, \"ipv4\": \"10.0.0.1\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("vlan")));
        mvc.perform(post(GATEWAYS).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"vlan\": 10, \"ipv4\": \"224.0.0.1\", \"ipv6\": \"10.0.0.1\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(header().string("Content-Type", "application/problem+json"))
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("ipv4", "ipv6")));
        mvc.perform(post(GATEWAYS).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"vlan\": 10}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("ipv4")));
    }

    @Test
    void aGatewayReachesEveryHostsEngineAndAVlanHasOne() throws Exception {
        var hosts = List.of(createHost("esx-01"), createHost("esx-02"));
        create("/api/v1/hosts/" + hosts.getFirst() + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""");
        var before = desiredGenerations(hosts);
        String body = "{\"vlan\": 10, \"ipv4\": \" 10.0.0.254 \", \"ipv6\": \"FD00::FE\"}";
        int id = JsonPath.read(created(GATEWAYS, body), "$.id");

        mvc.perform(get(GATEWAYS + "/" + id).with(viewer()))
                .andExpect(header().string("ETag", "\"0\""))
                .andExpect(jsonPath("$.ipv4").value("10.0.0.254"))
                .andExpect(jsonPath("$.ipv6").value("fd00::fe"));
        assertThat(desiredGenerations(hosts)).containsExactly(before.get(0) + 1, before.get(1) + 1);
        // the host's engine answers ping to the gateway address (ICMP echo to the router MAC by default)
        await("the host's engine with the gateway", () -> mvc.perform(post("/api/v1/hosts/" + hosts.getFirst()
                        + "/trace").with(viewer()).contentType(MediaType.APPLICATION_JSON).content("""
                        {"ingress": "vmnic0", "vlans": [10], "sourceIp": "10.0.0.1", "destinationIp": "10.0.0.254"}"""))
                .andReturn().getResponse().getContentAsString(), trace -> trace.contains("\"outcome\":\"ANSWERED\""));

        mvc.perform(put(GATEWAYS + "/" + id).with(operator()).header("If-Match", "\"0\"")
                        .contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", "\"0\""));
        assertThat(desiredGenerations(hosts)).as("an identical PUT bumps nothing")
                .containsExactly(before.get(0) + 1, before.get(1) + 1);
        mvc.perform(post(GATEWAYS).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"vlan\": 10, \"ipv4\": \"10.0.0.253\"}"))
                .andExpect(status().isConflict());
        mvc.perform(get(GATEWAYS).param("vlan", "10").with(viewer()))
                .andExpect(jsonPath("$.items[*].id", containsInAnyOrder(id)));
    }

    @Test
    void aRoutedFrameOverTheEgressNicsMtuIsAnsweredWithFragmentationNeededAndAnMtuChangeIsLive() throws Exception {
        UUID hostId = createHost("esx-mtu");
        String pnics = "/api/v1/hosts/" + hostId + "/pnics";
        create(pnics, """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""");
        String vmnic1 = pnics + "/" + JsonPath.read(created(pnics, """
                {"name": "vmnic1", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}, "mtu": 1280}"""), "$.id");
        created(GATEWAYS, "{\"vlan\": 10, \"ipv4\": \"10.0.0.254\"}");
        created("/api/v1/routing/routes", """
                {"prefix": "10.128.0.0/16", "nextHopMac": "02:00:00:00:00:fe", "output": "vmnic1", "vlan": 20}""");
        HostEngine engine = await("the engine with vmnic1 at MTU 1,280 and the route", () -> engines.engine(hostId)
                .filter(e -> e.config().routes().size() == 1 && e.config().ports().get(1).mtu() == 1280)
                .orElse(null), e -> e != null);

        // 1,400-byte frames (1,382-byte packets) routed out of vmnic1
        sendFifty(hostId);
        await("50 packet-too-big answers", () -> engine.stats().routerReplies().packetTooBig(), n -> n == 50);
        assertThat(JsonPath.<Integer>read(responseBody("/api/v1/hosts/" + hostId + "/traffic"),
                "$.dropped.MTU_EXCEEDED")).isEqualTo(50);
        String forwarding = responseBody("/api/v1/hosts/" + hostId + "/stats/forwarding");
        assertThat(JsonPath.<Integer>read(forwarding, "$.routerReplies.packetTooBig")).isEqualTo(50);
        assertThat(JsonPath.<Integer>read(forwarding, "$.routerReplies.echoReplies")).isZero();
        assertThat(JsonPath.<Integer>read(forwarding, "$.floods.frames")).isZero();
        mvc.perform(post("/api/v1/hosts/" + hostId + "/trace").with(viewer()).contentType(MediaType.APPLICATION_JSON)
                        .content("""
                                {"ingress": "vmnic0", "vlans": [10], "sourceIp": "10.0.0.1",
                                 "destinationIp": "10.128.0.1", "protocol": "udp", "length": 1400}"""))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.routing.output").value("vmnic1"))
                .andExpect(jsonPath("$.verdict.outcome").value("DROPPED"))
                .andExpect(jsonPath("$.verdict.dropReason").value("MTU_EXCEEDED"));

        mvc.perform(patch(vmnic1).with(operator()).header("If-Match", "\"0\"").contentType(MERGE_PATCH)
                        .content("{\"mtu\": 1500}"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.mtu").value(1500));
        await("vmnic1 at MTU 1,500", () -> engine.config().ports().get(1).mtu(), mtu -> mtu == 1500);
        assertThat(engines.engine(hostId)).as("an MTU change is live: the same engine").containsSame(engine);
        sendFifty(hostId);
        await("the 50 frames out of vmnic1", () -> engine.stats().ports().get(1).txPackets(), n -> n == 50);
        assertThat(engine.stats().routerReplies().packetTooBig()).isEqualTo(50);
    }

    private void sendFifty(UUID hostId) throws Exception {
        await("no traffic running", () -> responseBody("/api/v1/hosts/" + hostId + "/traffic"),
                body -> !body.contains("\"running\":true"));
        mvc.perform(post("/api/v1/hosts/" + hostId + "/traffic").with(operator())
                        .contentType(MediaType.APPLICATION_JSON).content("""
                                {"nic": "vmnic0", "flows": 5, "packets": 50, "frameBytes": 1400, "vlan": 10,
                                 "destinationMac": "02:ed:00:00:00:01"}"""))
                .andExpect(status().isCreated());
    }
}
