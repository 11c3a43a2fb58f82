package io.edp.manager.host.pnic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.file.Files;
import java.util.UUID;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

/** The API refuses a NIC whose driver would reach outside the confinement, with a 400 that names the setting. */
class NicConfinementApiTest extends ManagerTest {

    private UUID hostId;

    @BeforeEach
    void host() throws Exception {
        hostId = createHost("esx-01");
    }

    @Test
    void aPcapInputOutsideThePcapDirectoryIs400() throws Exception {
        postNic(pcap("/etc/shadow", "shadow-out.pcap"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.errors[0].field").value("driver.inputFile"))
                .andExpect(jsonPath("$.errors[0].message", containsString("edp.engines.pcap-dir")))
                .andExpect(jsonPath("$.errors.length()").value(1));
        assertThat(rows("physical_nic")).isZero();
    }

    @Test
    void aPcapOutputThatAlreadyExistsIs400AndTheFileIsKept() throws Exception {
        var existing = Files.writeString(PCAP_DIR.resolve("kept.pcap"), "an earlier capture");

        postNic(pcap("in.pcap", existing.toString()))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("driver.outputFile"))
                .andExpect(jsonPath("$.errors[0].message", containsString("already exists")));
        postNic(pcap("in.pcap", "../" + PCAP_DIR.getFileName() + "/kept.pcap"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].message", containsString("'..'")));

        assertThat(existing).hasContent("an earlier capture");
    }

    @Test
    void aNicKeepsItsOwnCaptureWhenItIsChanged() throws Exception {
        var id = create(pnics(), pcap("in.pcap", "own.pcap"));
        Files.writeString(PCAP_DIR.resolve("own.pcap"), "its capture, written by its realization");

        mvc.perform(patch(pnics() + "/" + id).with(operator()).header("If-Match", "\"0\"").contentType(MERGE_PATCH)
                        .content("{\"rxQueues\": 2}"))
                .andExpect(status().isOk());
    }

    @Test
    void switchingAnExistingNicToAConfinedFileOutsideIs400() throws Exception {
        var id = create(pnics(), nic("{\"kind\": \"loopback\"}"));

        mvc.perform(patch(pnics() + "/" + id).with(operator()).header("If-Match", "\"0\"").contentType(MERGE_PATCH)
                        .content("{\"driver\": {\"kind\": \"pcap\", \"inputFile\": \"in.pcap\", "
                                + "\"outputFile\": \"/tmp/../etc/passwd\"}}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("driver.outputFile"));
    }

    @Test
    void anAfPacketInterfaceOutsideTheAllowListIs400NamingTheSetting() throws Exception {
        postNic(nic("{\"kind\": \"af_packet\", \"interfaceName\": \"lo\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("driver.interfaceName"))
                .andExpect(jsonPath("$.errors[0].message", containsString("edp.engines.af-packet-interfaces")));
        assertThat(rows("physical_nic")).isZero();
    }

    private String pnics() {
        return "/api/v1/hosts/" + hostId + "/pnics";
    }

    private static String pcap(String input, String output) {
        return nic("{\"kind\": \"pcap\", \"inputFile\": \"%s\", \"outputFile\": \"%s\"}".formatted(input, output));
    }

    private static String nic(String driver) {
        return """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 4, "rss": true, "driver": %s}
                """.formatted(driver);
    }

    private ResultActions postNic(String json) throws Exception {
        return mvc.perform(post(pnics()).with(operator()).contentType(MediaType.APPLICATION_JSON).content(json));
    }
}
