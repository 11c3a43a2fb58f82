package io.edp.manager.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.edp.bench.HostCommand;
import io.edp.manager.ManagerTest;
import io.edp.manager.engines.HostEngines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

/**
 * Live captures through the API: start, list, read the pcap back with tshark, stop and remove, limits, the end of
 * a capture whose engine a push rebuilds, bad input.
 */
class CaptureApiTest extends ManagerTest {

    private static final String VM_MAC = "00:50:56:aa:bb:01";

    @TempDir
    Path dir;

    @Autowired
    HostEngines engines;

    private ResultActions start(String hostId, String json) throws Exception {
        return mvc.perform(post("/api/v1/hosts/" + hostId + "/captures").with(operator())
                .contentType(MediaType.APPLICATION_JSON).content(json));
    }

    /** A host with a VM whose engine runs with the VM's port; its id. */
    private String hostWithAnEngine(String name) throws Exception {
        String hostId = hostWithAVm(name);
        await("the host's engine with the VM's port", () -> mvc.perform(get("/api/v1/hosts/" + hostId
                + "/stats/nic-queues").with(viewer())).andReturn().getResponse().getContentAsString(),
                body -> body.contains("web-eth1"));
        return hostId;
    }

    private String capture(String hostId, String id) throws Exception {
        return responseBody("/api/v1/hosts/" + hostId + "/captures/" + id);
    }

    @Test
    void aCaptureOfTheVmsPortRecordsTheTrafficToItAndItsPcapReadsBackInTshark() throws Exception {
        String hostId = hostWithAnEngine("esx-capture");
        var body = start(hostId, """
                {"port": "%s", "direction": "TX", "filter": {"protocol": "udp", "addresses": ["10.128.0.0/16"]},
                 "maxPackets": 50, "durationSeconds": 600, "snaplen": 128}""".formatted(VM_MAC))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.port").value("web-eth1"))
                .andExpect(jsonPath("$.direction").value("TX"))
                .andExpect(jsonPath("$.state").value("RUNNING"))
                .andExpect(jsonPath("$.filter.protocol").value("udp"))
                .andReturn().getResponse();
        String id = JsonPath.read(body.getContentAsString(), "$.id");
        assertThat(body.getHeader("Location")).endsWith("/api/v1/hosts/" + hostId + "/captures/" + id);
        // the vmnic0's own received frames, port 9 only: none of the traffic's
        String other = JsonPath.read(start(hostId, """
                {"port": "vmnic0", "direction": "RX", "filter": {"ports": [9]}}""")
                .andExpect(status().isCreated())
                .andReturn().getResponse().getContentAsString(), "$.id");

        sendTenThousandFramesToTheVmInLegacyMode(hostId);
        await("the capture to end at its limit", () -> capture(hostId, id), c -> c.contains("\"state\":\"ENDED\""));
        mvc.perform(get("/api/v1/hosts/" + hostId + "/captures/" + id).with(viewer()))
                .andExpect(jsonPath("$.endReason").value("PACKET_LIMIT"))
                .andExpect(jsonPath("$.captured").value(50))
                .andExpect(jsonPath("$.dropped").value(0));
        mvc.perform(get("/api/v1/hosts/" + hostId + "/captures").with(viewer()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$", hasSize(2)))
                .andExpect(jsonPath("$[*].id", containsInAnyOrder(id, other)));

        byte[] pcap = mvc.perform(get("/api/v1/hosts/" + hostId + "/captures/" + id + "/pcap").with(viewer())
                        .accept("application/vnd.tcpdump.pcap"))
                .andExpect(status().isOk())
                .andExpect(header().string("Content-Type", "application/vnd.tcpdump.pcap"))
                .andExpect(header().string("Content-Disposition", containsString(id + ".pcap")))
                .andReturn().getResponse().getContentAsByteArray();
        Path file = Files.write(dir.resolve("vm.pcap"), pcap);
        // the capture's own URL: the file for a client that asks for one, JSON for any other
        assertThat(mvc.perform(get("/api/v1/hosts/" + hostId + "/captures/" + id).with(viewer())
                        .accept("application/vnd.tcpdump.pcap"))
                .andExpect(status().isOk())
                .andExpect(header().string("Content-Type", "application/vnd.tcpdump.pcap"))
                .andReturn().getResponse().getContentAsByteArray()).isEqualTo(pcap);
        for (String accept : new String[] {"*/*", "application/json", "application/json, */*;q=0.5"}) {
            mvc.perform(get("/api/v1/hosts/" + hostId + "/captures/" + id).with(viewer()).accept(accept))
                    .andExpect(status().isOk())
                    .andExpect(header().string("Content-Type", containsString("application/json")))
                    .andExpect(jsonPath("$.captured").value(50));
        }
        mvc.perform(get("/api/v1/hosts/" + hostId + "/captures/" + id).with(viewer())
                        .accept("application/x-pcapng"))
                .andExpect(status().isNotAcceptable());
        List<String> frames = HostCommand.run("tshark", "-r", file.toString(), "-Tfields", "-e", "eth.dst",
                "-e", "ip.proto", "-e", "ip.dst", "-e", "frame.cap_len").lines().toList();
        assertThat(frames).hasSize(50)
                .allSatisfy(f -> assertThat(f).matches(VM_MAC + "\t17\t10\\.128\\.\\d+\\.\\d+\t\\d+"));

        mvc.perform(delete("/api/v1/hosts/" + hostId + "/captures/" + other).with(operator()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.state").value("ENDED"))
                .andExpect(jsonPath("$.endReason").value("STOPPED"))
                .andExpect(jsonPath("$.captured").value(0));
        mvc.perform(delete("/api/v1/hosts/" + hostId + "/captures/" + other).with(operator()))
                .andExpect(status().isNoContent());
        mvc.perform(get("/api/v1/hosts/" + hostId + "/captures/" + other).with(viewer()))
                .andExpect(status().isNotFound());
        assertThat(CAPTURE_DIR.resolve(other + ".pcap")).doesNotExist();
        assertThat(CAPTURE_DIR.resolve(id + ".pcap")).exists();
    }

    /** 10,000 frames from vmnic0 to the VM (LEGACY: every one runs the IOChain). */
    private void sendTenThousandFramesToTheVmInLegacyMode(String hostId) throws Exception {
        mvc.perform(post("/api/v1/hosts/" + hostId + "/traffic").with(operator())
                        .contentType(MediaType.APPLICATION_JSON).content("""
                                {"nic": "vmnic0", "flows": 100, "packets": 10000, "destinationMac": "%s"}"""
                                .formatted(VM_MAC)))
                .andExpect(status().isCreated());
    }

    @Test
    void aPushThatRebuildsTheEngineEndsItsCapturesWithEngineClosedAndTheirFilesStayReadable() throws Exception {
        String hostId = hostWithAnEngine("esx-capture-rebuild");
        String id = JsonPath.read(start(hostId, """
                {"port": "vmnic0", "direction": "RX"}""").andExpect(status().isCreated())
                .andExpect(jsonPath("$.format").value("PCAP"))
                .andReturn().getResponse().getContentAsString(), "$.id");
        String ng = JsonPath.read(start(hostId, """
                {"port": "vmnic0", "format": "PCAPNG"}""").andExpect(status().isCreated())
                .andExpect(jsonPath("$.format").value("PCAPNG"))
                .andReturn().getResponse().getContentAsString(), "$.id");
        mvc.perform(post("/api/v1/hosts/" + hostId + "/traffic").with(operator())
                        .contentType(MediaType.APPLICATION_JSON).content("""
                                {"nic": "vmnic0", "flows": 10, "packets": 100, "destinationMac": "%s"}"""
                                .formatted(VM_MAC)))
                .andExpect(status().isCreated());
        await("the 100 frames captured", () -> capture(hostId, id), c -> c.contains("\"captured\":100"));
        await("the 100 frames captured in pcapng", () -> capture(hostId, ng), c -> c.contains("\"captured\":100"));
        byte[] pcapng = mvc.perform(get("/api/v1/hosts/" + hostId + "/captures/" + ng + "/pcap").with(viewer()))
                .andExpect(status().isOk())
                .andExpect(header().string("Content-Type", "application/x-pcapng"))
                .andExpect(header().string("Content-Disposition", containsString(ng + ".pcapng")))
                .andReturn().getResponse().getContentAsByteArray();
        Path ngFile = Files.write(dir.resolve("both.pcapng"), pcapng);
        assertThat(HostCommand.run("tshark", "-r", ngFile.toString(), "-Tfields", "-e", "frame.interface_name",
                "-e", "frame.packet_flags_direction", "-e", "eth.dst").lines())
                .as("received by vmnic0: inbound").hasSize(100)
                .allSatisfy(f -> assertThat(f).isEqualTo("vmnic0\t0x00000001\t" + VM_MAC));

        // a second worker cannot be added to a running engine: the push rebuilds it
        putEdp(hostId, """
                {"settings": {"workersPerNumaNode": {"0": 2}}}""").andExpect(status().isOk());
        await("the capture ended by the rebuild", () -> capture(hostId, id), c -> c.contains("\"state\":\"ENDED\""));
        mvc.perform(get("/api/v1/hosts/" + hostId + "/captures/" + id).with(viewer()))
                .andExpect(jsonPath("$.endReason").value("ENGINE_CLOSED"))
                .andExpect(jsonPath("$.captured").value(100));
        byte[] pcap = mvc.perform(get("/api/v1/hosts/" + hostId + "/captures/" + id + "/pcap").with(viewer()))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsByteArray();
        Path file = Files.write(dir.resolve("before-rebuild.pcap"), pcap);
        assertThat(HostCommand.run("tshark", "-r", file.toString(), "-Tfields", "-e", "eth.dst").lines())
                .hasSize(100).allSatisfy(dst -> assertThat(dst).isEqualTo(VM_MAC));
        await("the rebuilt engine with two workers", () -> engines.engine(UUID.fromString(hostId))
                .map(e -> e.config().workerCount()).orElse(0), workers -> workers == 2);
        start(hostId, """
                {"port": "vmnic0"}""").andExpect(status().isCreated())
                .andExpect(jsonPath("$.state").value("RUNNING"));
    }

    @Test
    void aCaptureEndsAtItsTimeLimitAndAHostRunsAtMostFourAtOnce() throws Exception {
        String hostId = hostWithAnEngine("esx-capture-limits");
        String timed = JsonPath.read(start(hostId, """
                {"port": "vmnic0", "durationSeconds": 1}""").andExpect(status().isCreated())
                .andExpect(jsonPath("$.direction").value("BOTH"))
                .andExpect(jsonPath("$.maxPackets").value(1000))
                .andExpect(jsonPath("$.snaplen").value(2048))
                .andReturn().getResponse().getContentAsString(), "$.id");
        await("the time limit", () -> capture(hostId, timed), c -> c.contains("\"endReason\":\"TIME_LIMIT\""));

        for (int i = 0; i < 4; i++) {
            start(hostId, """
                    {"port": "vmnic0"}""").andExpect(status().isCreated());
        }
        start(hostId, """
                {"port": "vmnic0"}""").andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail", containsString("edp.capture.max-running")));
        mvc.perform(post("/api/v1/hosts/" + hostId + "/captures").with(viewer())
                .contentType(MediaType.APPLICATION_JSON).content("{\"port\": \"vmnic0\"}"))
                .andExpect(status().isForbidden());
    }

    @Test
    void badInputIsAProblemNamingEachFieldAndAnUnknownPortOrHostIsSaid() throws Exception {
        String hostId = hostWithAnEngine("esx-capture-bad");

        start(hostId, """
                {"port": "vmnic0", "direction": "SIDEWAYS"}""").andExpect(status().isBadRequest());
        start(hostId, """
                {"port": "vmnic0", "maxPackets": 0, "durationSeconds": 3601, "snaplen": 10,
                 "filter": {"ports": [70000], "protocol": "gre"}}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("maxPackets", "durationSeconds",
                        "snaplen", "filter.ports[0]", "filter.protocol")));
        start(hostId, """
                {"port": "vmnic0", "filter": {"addresses": ["10.0.0.300", "fd00::/200", "10.1.0.0/16"]}}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("filter.addresses[0]",
                        "filter.addresses[1]")));
        start(hostId, """
                {"port": "vmnic9"}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("port"))
                .andExpect(jsonPath("$.errors[0].message", containsString("no physical NIC, virtual NIC MAC or port "
                        + "named 'vmnic9'")));
        start(UUID.randomUUID().toString(), """
                {"port": "vmnic0"}""").andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/hosts/" + hostId + "/captures/" + UUID.randomUUID()).with(viewer()))
                .andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/hosts/" + hostId + "/captures").with(viewer()))
                .andExpect(jsonPath("$", hasSize(0)));
    }
}
