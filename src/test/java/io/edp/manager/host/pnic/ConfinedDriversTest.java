package io.edp.manager.host.pnic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.manager.database.DataDirectoryProperties;
import io.edp.manager.engines.EngineProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each way out of the confinement, tried where a realization opens the engine's ports: the drivers check again,
 * whatever the API let through before (a setting tightened since, a file or link put in place after the check).
 */
class ConfinedDriversTest {

    private static final String SECRET = "root:$6$secret:19000:0:99999:7:::\n";

    @TempDir
    Path data;

    private Path pcapDir;
    private Path secret;
    private NicDrivers drivers;
    private final MbufPool pool = new MbufPool(256, Mbuf.DESCRIPTOR_BYTES);

    @BeforeEach
    void confinedDrivers() throws IOException {
        drivers = new NicConfinement(new EngineProperties(true, 4096, 65536, true, null, null, List.of("veth0")),
                new DataDirectoryProperties(data)).drivers();
        pcapDir = data.resolve("pcap");
        secret = Files.writeString(data.resolve("shadow"), SECRET);
    }

    @AfterEach
    void closePool() {
        pool.close();
    }

    private void open(Map<String, String> options) {
        drivers.open(new PortConfig(0, "uplink", 0, 1, 1, "pcap", options), pool).close();
    }

    @Test
    void aCaptureOutsideThePcapDirectoryIsNeitherReadNorWritten() {
        assertThatThrownBy(() -> open(Map.of("rxFile", secret.toString())))
                .hasMessageContaining("edp.engines.pcap-dir").hasMessageNotContaining("root");
        assertThatThrownBy(() -> open(Map.of("txFile", secret.toString())))
                .hasMessageContaining("edp.engines.pcap-dir");

        assertThat(secret).hasContent(SECRET);
    }

    @Test
    void dotDotDoesNotLeaveThePcapDirectory() {
        assertThatThrownBy(() -> open(Map.of("txFile", "../shadow"))).hasMessageContaining("'..'");

        assertThat(secret).hasContent(SECRET);
    }

    @Test
    void aSymbolicLinkInsideThatLeadsOutIsNotFollowed() throws IOException {
        Files.createSymbolicLink(pcapDir.resolve("out.pcap"), secret);

        assertThatThrownBy(() -> open(Map.of("txFile", "out.pcap"))).hasMessageContaining("symbolic link");
        assertThatThrownBy(() -> open(Map.of("rxFile", "out.pcap"))).hasMessageContaining("symbolic link");

        assertThat(secret).hasContent(SECRET);
    }

    @Test
    void aSymbolicLinkToAnotherCaptureInsideIsNotWrittenThrough() throws IOException {
        var capture = Files.writeString(pcapDir.resolve("evidence.pcap"), "an earlier capture");
        Files.createSymbolicLink(pcapDir.resolve("out.pcap"), capture);

        assertThatThrownBy(() -> open(Map.of("txFile", "out.pcap"))).hasMessageContaining("cannot write");

        assertThat(capture).hasContent("an earlier capture");
    }

    @Test
    void aFileThatIsNotACaptureIsRefusedWithoutEchoingItsBytes() throws IOException {
        Files.writeString(pcapDir.resolve("notes.pcap"), SECRET);

        assertThatThrownBy(() -> open(Map.of("rxFile", "notes.pcap")))
                .hasMessageContaining("not a pcap file")
                .hasMessageNotContaining("726f6f74").hasMessageNotContaining("746f6f72")
                .hasMessageNotContaining("root");
    }

    @Test
    void aCaptureInsideOpensAndIsWrittenThere() {
        open(Map.of("txFile", "out.pcap"));

        assertThat(pcapDir.resolve("out.pcap")).isNotEmptyFile();
    }

    @Test
    void afPacketOpensNoInterfaceOutsideTheAllowList() {
        assertThatThrownBy(() -> drivers.open(new PortConfig(0, "uplink", 0, 1, 1, "af_packet",
                Map.of("interface", "lo")), pool))
                .hasMessageContaining("'lo'").hasMessageContaining("edp.engines.af-packet-interfaces");
    }
}
