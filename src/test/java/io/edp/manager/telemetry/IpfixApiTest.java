package io.edp.manager.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.ResultActions;

class IpfixApiTest extends ManagerTest {

    private static final String COLLECTORS = "/api/v1/ipfix-collectors";

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void collectorsAreCheckedVersionedAndEveryChangeBumpsEveryHost() throws Exception {
        var host = createHost("esx-01");
        long before = generation(host);
        mvc.perform(post(COLLECTORS).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"address\": \"collector.example\", \"port\": 0}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("port")));
        mvc.perform(post(COLLECTORS).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"address\": \"collector.example\", \"port\": 4739}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("address"));

        int id = JsonPath.read(created(COLLECTORS, "{\"address\": \"2001:DB8:0::10\", \"port\": 4739}"), "$.id");
        mvc.perform(get(COLLECTORS + "/" + id).with(viewer()))
                .andExpect(header().string("ETag", "\"0\""))
                .andExpect(jsonPath("$.address").value("2001:db8:0:0:0:0:0:10"));
        assertThat(generation(host)).isEqualTo(before + 1);
        mvc.perform(post(COLLECTORS).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"address\": \"2001:db8::10\", \"port\": 4739}"))
                .andExpect(status().isConflict());

        mvc.perform(put(COLLECTORS + "/" + id).with(operator()).header("If-Match", "\"0\"")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"address\": \"2001:db8::10\", \"port\": 4739}"))
                .andExpect(status().isOk()).andExpect(header().string("ETag", "\"0\""));
        assertThat(generation(host)).isEqualTo(before + 1);
        mvc.perform(put(COLLECTORS + "/" + id).with(operator()).header("If-Match", "\"0\"")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"address\": \"192.0.2.10\", \"port\": 2055}"))
                .andExpect(status().isOk()).andExpect(header().string("ETag", "\"1\""));
        mvc.perform(delete(COLLECTORS + "/" + id).with(operator()).header("If-Match", "\"0\""))
                .andExpect(status().isPreconditionFailed());
        mvc.perform(delete(COLLECTORS + "/" + id).with(operator()).header("If-Match", "\"1\""))
                .andExpect(status().isOk()).andExpect(jsonPath("$.bumpedHosts").isArray());
        assertThat(generation(host)).isEqualTo(before + 3);
    }

    @Test
    void aHostThatSwitchesIpfixOnExportsItsFlowsAndCountsThem() throws Exception {
        try (DatagramChannel collector = DatagramChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            AtomicLong packets = new AtomicLong();
            Thread.ofPlatform().daemon(true).start(() -> sumPacketDeltaCounts(collector, packets));
            created(COLLECTORS, "{\"address\": \"127.0.0.1\", \"port\": "
                    + ((InetSocketAddress) collector.getLocalAddress()).getPort() + "}");
            created("/api/v1/edp-profiles", "{\"name\": \"exporting\", \"settings\": {\"telemetryIpfix\": true, "
                    + "\"ipfixIdleTimeoutSeconds\": 10}}");
            var hostId = hostWithAVm("esx-ipfix");
            putEdp(hostId, "{\"profile\": \"exporting\", \"settings\": {\"mode\": \"EDP_STANDARD\", "
                    + "\"ipfixActiveTimeoutSeconds\": 59}}")
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.errors[0].field").value("settings.ipfixActiveTimeoutSeconds"));
            putEdp(hostId, "{\"profile\": \"exporting\", \"settings\": {\"mode\": \"EDP_STANDARD\", "
                    + "\"ipfixMaxFlows\": 1000}}")
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.errors[0].field").value("settings.ipfixMaxFlows"));
            putEdp(hostId, "{\"profile\": \"exporting\", \"settings\": {\"mode\": \"EDP_STANDARD\", "
                    + "\"ipfixObservationDomainId\": 7}}")
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.effective.telemetryIpfix").value(true))
                    .andExpect(jsonPath("$.effective.ipfixIdleTimeoutSeconds").value(10))
                    .andExpect(jsonPath("$.effective.ipfixActiveTimeoutSeconds").value(60));
            await("IPFIX on in the engine", () -> responseBody("/api/v1/hosts/" + hostId + "/stats/telemetry"),
                    t -> JsonPath.<List<Boolean>>read(t, "$..ipfix.enabled").contains(true)); // 404s until pushed
            sendTenThousandFramesToTheVm(hostId);

            // the flush ends every entry's counting: 100 flows, one record each, 10,000 packets
            mvc.perform(post("/api/v1/hosts/" + hostId + "/stats/flow-cache/flush").with(operator()))
                    .andExpect(status().isNoContent());
            await("100 records exported", () -> responseBody("/api/v1/hosts/" + hostId + "/stats/telemetry"),
                    t -> JsonPath.<List<Integer>>read(t, "$..ipfix.recordsExported").contains(100));
            await("10,000 packets at the collector", packets::get, n -> n == 10_000);
            mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/telemetry").with(viewer()))
                    .andExpect(jsonPath("$.ipfix.templatesSent").value(2))
                    .andExpect(jsonPath("$.ipfix.exportErrors").value(0))
                    .andExpect(jsonPath("$.ipfix.recordsDropped").value(0));
            assertThat(responseBody("/actuator/prometheus")).containsPattern(
                    "edp_ipfix_records_total\\{host=\"esx-ipfix\",host_id=\"" + hostId + "\"} 100");
        }
    }

    /** Adds up packetDeltaCount over the IPv4 data records (template 256) of every message received. */
    private static void sumPacketDeltaCounts(DatagramChannel collector, AtomicLong packets) {
        ByteBuffer b = ByteBuffer.allocate(65_536);
        try {
            while (true) {
                b.clear();
                collector.receive(b);
                for (int at = 16; at + 4 <= b.position(); at += b.getShort(at + 2) & 0xFFFF) {
                    if (b.getShort(at) == 256) {
                        for (int r = at + 4; r + 62 <= at + (b.getShort(at + 2) & 0xFFFF); r += 62) {
                            packets.addAndGet(b.getLong(r + 23));
                        }
                    }
                }
            }
        } catch (java.io.IOException e) {
            // closed at the end of the test
        }
    }

    private long generation(UUID host) {
        return jdbc.queryForObject("SELECT desired_generation FROM host_realization WHERE host_id = ?", Long.class,
                host);
    }
}
