package io.edp.manager.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

/** The packet trace through the API: both forms, defaults, validation, viewers, and no audit event. */
class TraceApiTest extends ManagerTest {

    /** A host whose vmnic1 is the route to 10.128.0.0/16 and whose firewall drops SSH; returns its id. */
    private UUID hostWithRouteAndRule() throws Exception {
        var hostId = createHost("esx-trace");
        for (var nic : new String[] {"vmnic0", "vmnic1"}) {
            create("/api/v1/hosts/" + hostId + "/pnics", """
                    {"name": "%s", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                     "driver": {"kind": "loopback"}}""".formatted(nic));
        }
        created("/api/v1/routing/routes", """
                {"prefix": "10.128.0.0/16", "nextHopMac": "02:00:00:00:00:fe", "output": "vmnic1", "vlan": 20}""");
        created("/api/v1/firewall/rules", """
                {"name": "no-ssh", "priority": 10, "source": "any", "destination": "any", "protocol": "TCP",
                 "destinationPorts": "22", "action": "DROP"}""");
        // the rule is pushed after the route: once a trace meets it, the engine has both
        await("the host's engine with the route and the rule", () -> trace(hostId, viewer(), """
                {"ingress": "vmnic0", "sourceIp": "10.0.0.1", "destinationIp": "10.128.0.1", "protocol": "tcp",
                 "destinationPort": 22}""")
                .andReturn().getResponse().getContentAsString(), body -> body.contains("FIREWALL_DROP"));
        return hostId;
    }

    @Test
    void aRoutedPacketDescribedByItsFieldsIsTracedStageByStageWithDefaultsForWhatIsLeftOut() throws Exception {
        var hostId = hostWithRouteAndRule();

        trace(hostId, viewer(), """
                {"ingress": "vmnic0", "sourceIp": "10.0.0.1", "destinationIp": "10.128.0.1", "protocol": "udp",
                 "destinationPort": 53}""")
                .andExpect(status().isOk())
                // the frame built from the fields: UDP from 02:00:00:00:00:aa to the router, TTL 64, 64 bytes
                .andExpect(jsonPath("$.frameHex").value("02ed000000010200000000aa08004500003200000000401166"
                        + "3a0a0000010a800001c0000035001e000000000000000000000000000000000000000000000000"))
                .andExpect(jsonPath("$.ingress").value("vmnic0"))
                .andExpect(jsonPath("$.generation").value(greaterThan(0)))
                .andExpect(jsonPath("$.flowKey").value(startsWith("port 0 to 02:ed:00:00:00:01 udp "
                        + "10.0.0.1:49152 > 10.128.0.1:53")))
                .andExpect(jsonPath("$.switching.decision").value("TO_ROUTER"))
                .andExpect(jsonPath("$.firewall.connection").value("NEW"))
                .andExpect(jsonPath("$.firewall.allowed").value(true))
                .andExpect(jsonPath("$.routing.prefix").value("10.128.0.0/16"))
                .andExpect(jsonPath("$.routing.output").value("vmnic1"))
                .andExpect(jsonPath("$.routing.nextHop").value("02:00:00:00:00:fe"))
                .andExpect(jsonPath("$.flowCache.state").value("DISABLED")) // a host runs LEGACY until EDP is on
                .andExpect(jsonPath("$.verdict.outcome").value("FORWARDED"))
                .andExpect(jsonPath("$.verdict.output").value("vmnic1"))
                // rewritten: to the next hop, from the router, tagged 20
                .andExpect(jsonPath("$.verdict.frameHex").value(startsWith("02000000 00fe02ed00000001 81000014"
                        .replace(" ", ""))));
    }

    @Test
    void aFrameGivenInHexIsTracedAsIsAndADropNamesItsReasonAndRule() throws Exception {
        var hostId = hostWithRouteAndRule();
        var fields = trace(hostId, operator(), """
                {"ingress": "vmnic0", "sourceIp": "10.0.0.1", "destinationIp": "10.128.0.1", "protocol": "tcp",
                 "destinationPort": 22, "tcpFlags": ["SYN"]}""")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.firewall.allowed").value(false))
                .andExpect(jsonPath("$.routing").value(nullValue()))
                .andExpect(jsonPath("$.verdict.outcome").value("DROPPED"))
                .andExpect(jsonPath("$.verdict.dropReason").value("FIREWALL_DROP"))
                .andReturn().getResponse().getContentAsString();
        int ruleId = JsonPath.read(fields, "$.verdict.ruleId");
        assertThat(ruleId).isPositive();
        String frameHex = JsonPath.read(fields, "$.frameHex");

        trace(hostId, viewer(), """
                {"ingress": "vmnic0", "frameHex": "%s"}""".formatted(frameHex))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.frameHex").value(frameHex))
                .andExpect(jsonPath("$.verdict.dropReason").value("FIREWALL_DROP"))
                .andExpect(jsonPath("$.verdict.ruleId").value(ruleId));
        trace(hostId, viewer(), """
                {"ingress": "vmnic0", "frameHex": "%s"}""".formatted(frameHex.substring(0, 20)))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.flowKey").value(nullValue()))
                .andExpect(jsonPath("$.verdict.dropReason").value("TRUNCATED_ETHERNET"));
    }

    @Test
    void aVirtualNicIsAnIngressByItsMacAndAnOutputByItsPortName() throws Exception {
        var hostId = hostWithRouteAndRule();
        var vm = createVm(hostId, "web");
        create("/api/v1/hosts/" + hostId + "/vms/" + vm + "/vnics", """
                {"mac": "00:50:56:aa:bb:01", "vlan": 0, "adapterType": "VMXNET3", "rxQueues": 1}""");
        await("the vNIC's port", () -> trace(hostId, viewer(), """
                {"ingress": "vmnic0", "destinationMac": "00:50:56:aa:bb:01", "sourceIp": "10.0.0.1",
                 "destinationIp": "10.129.0.1"}""").andReturn().getResponse().getContentAsString(),
                body -> body.contains("\"output\":\"web-eth1\""));

        trace(hostId, viewer(), """
                {"ingress": "00:50:56:AA:BB:01", "sourceIp": "10.129.0.1", "destinationIp": "10.128.0.1"}""")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.ingress").value("web-eth1"))
                // the source MAC defaults to the vNIC's own
                .andExpect(jsonPath("$.frameHex").value(startsWith("02ed00000001005056aabb01")))
                .andExpect(jsonPath("$.switching.decision").value("TO_ROUTER"))
                .andExpect(jsonPath("$.verdict.output").value("vmnic1"));
    }

    @Test
    void badFieldsAreProblemDetailsNamingEachField() throws Exception {
        var hostId = hostWithRouteAndRule();

        trace(hostId, viewer(), """
                {"ingress": "vmnic0", "sourceIp": "10.0.0.300", "protocol": "gre", "vlans": [10, 20, 30],
                 "sourceMac": "nope", "sourcePort": 70000}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("protocol", "vlans", "sourceMac",
                        "sourcePort")));
        trace(hostId, viewer(), """
                {"ingress": "vmnic0", "sourceIp": "10.0.0.300", "destinationIp": "fd00::1"}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("sourceIp")));
        trace(hostId, viewer(), """
                {"ingress": "vmnic0", "sourceIp": "10.0.0.1", "destinationIp": "fd00::1"}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("destinationIp"));
        trace(hostId, viewer(), """
                {"ingress": "vmnic0"}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("sourceIp", "destinationIp")));
        trace(hostId, viewer(), """
                {"ingress": "vmnic0", "frameHex": "02ed", "ttl": 3}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("frameHex"));
        trace(hostId, viewer(), """
                {"ingress": "vmnic0", "frameHex": "xyz"}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("frameHex"));
        trace(hostId, viewer(), """
                {"ingress": "vmnic7", "sourceIp": "10.0.0.1", "destinationIp": "10.128.0.1"}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("ingress"));
    }

    @Test
    void anUnknownHostIs404AndATraceIsNoAuditedWrite() throws Exception {
        trace(UUID.randomUUID(), viewer(), """
                {"ingress": "vmnic0", "sourceIp": "10.0.0.1", "destinationIp": "10.128.0.1"}""")
                .andExpect(status().isNotFound());
        var hostId = hostWithRouteAndRule();
        long events = rows("audit_event");

        trace(hostId, viewer(), """
                {"ingress": "vmnic0", "sourceIp": "10.0.0.1", "destinationIp": "10.128.0.1"}""")
                .andExpect(status().isOk());
        trace(hostId, operator(), """
                {"ingress": "vmnic0", "sourceIp": "10.0.0.1", "destinationIp": "10.128.0.1"}""")
                .andExpect(status().isOk());
        trace(hostId, viewer(), """
                {"ingress": "vmnic0"}""").andExpect(status().isBadRequest());

        assertThat(rows("audit_event")).as("a trace changes nothing: no write to audit").isEqualTo(events);
    }

    private ResultActions trace(UUID hostId, RequestPostProcessor account, String json) throws Exception {
        return mvc.perform(post("/api/v1/hosts/" + hostId + "/trace").with(account)
                .contentType(MediaType.APPLICATION_JSON).content(json));
    }
}
