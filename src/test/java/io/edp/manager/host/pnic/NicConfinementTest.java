package io.edp.manager.host.pnic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.database.DataDirectoryProperties;
import io.edp.manager.engines.EngineProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules a NIC's driver settings must keep: pcap files inside the pcap directory, af_packet on listed interfaces.
 */
class NicConfinementTest {

    @TempDir
    Path data;

    private NicConfinement confinement(List<String> interfaces) {
        return new NicConfinement(new EngineProperties(true, 4096, 65536, true, null, null, interfaces),
                new DataDirectoryProperties(data));
    }

    private Path pcapDir() {
        return data.resolve("pcap");
    }

    @Test
    void thePcapDirectoryDefaultsToOneUnderTheDataDirectoryAndIsCreated() {
        var confinement = confinement(List.of());

        assertThat(confinement.pcapDir()).isEqualTo(pcapDir().toAbsolutePath());
        assertThat(pcapDir()).isDirectory();
    }

    @Test
    void aRelativeOrAbsoluteNameInsideTheDirectoryResolvesInsideIt() {
        var confinement = confinement(List.of());

        assertThat(confinement.pcapFile("in.pcap")).isEqualTo(pcapDir().resolve("in.pcap"));
        assertThat(confinement.pcapFile(pcapDir().resolve("sub/in.pcap").toString()))
                .isEqualTo(pcapDir().resolve("sub/in.pcap"));
    }

    @Test
    void aPathOutsideTheDirectoryIsRefusedNamingTheSetting() {
        var confinement = confinement(List.of());

        assertThatThrownBy(() -> confinement.pcapFile("/etc/shadow")).hasMessageContaining("edp.engines.pcap-dir");
        assertThatThrownBy(() -> confinement.pcapFile(pcapDir().toString())).hasMessageContaining("inside");
    }

    @Test
    void dotDotIsRefusedEvenWhenItWouldStayInside() {
        var confinement = confinement(List.of());

        assertThatThrownBy(() -> confinement.pcapFile("../../etc/shadow")).hasMessageContaining("'..'");
        assertThatThrownBy(() -> confinement.pcapFile("sub/../in.pcap")).hasMessageContaining("'..'");
    }

    @Test
    void aSymbolicLinkLeadingOutIsRefusedForTheFileAndForADirectoryOnTheWay() throws IOException {
        var confinement = confinement(List.of());
        var outside = Files.writeString(data.resolve("secret.txt"), "root:x:0:0");
        Files.createSymbolicLink(pcapDir().resolve("shadow.pcap"), outside);
        Files.createSymbolicLink(pcapDir().resolve("etc"), data);
        Files.createSymbolicLink(pcapDir().resolve("dangling.pcap"), data.resolve("not-there"));

        assertThatThrownBy(() -> confinement.pcapFile("shadow.pcap")).hasMessageContaining("symbolic link");
        assertThatThrownBy(() -> confinement.pcapFile("etc/new.pcap")).hasMessageContaining("symbolic link");
        assertThatThrownBy(() -> confinement.pcapFile("dangling.pcap")).hasMessageContaining("cannot be resolved");
    }

    @Test
    void anOutputFileThatExistsIsRefusedUnlessItIsTheNicsOwnCapture() throws IOException {
        var confinement = confinement(List.of());
        Files.writeString(pcapDir().resolve("theirs.pcap"), "someone's capture");
        var pcap = new DriverSettings.Pcap("in.pcap", "theirs.pcap");

        assertThatThrownBy(() -> confinement.check(pcap, null))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.errors())
                        .singleElement().satisfies(problem -> {
                            assertThat(problem.field()).isEqualTo("driver.outputFile");
                            assertThat(problem.message()).contains("already exists");
                        }));
        assertThatThrownBy(() -> confinement.check(pcap, new DriverSettings.Pcap("in.pcap", "other.pcap")))
                .isInstanceOf(InvalidRequestException.class);
        assertThatCode(() -> confinement.check(pcap, new DriverSettings.Pcap("old-in.pcap", "theirs.pcap")))
                .as("the NIC's own capture, rewritten on its rebuilds").doesNotThrowAnyException();
        assertThatCode(() -> confinement.check(new DriverSettings.Pcap("in.pcap", "new.pcap"), null))
                .doesNotThrowAnyException();
    }

    @Test
    void theOutputFileMustNotBeTheInputFile() {
        assertThatThrownBy(() -> confinement(List.of()).check(new DriverSettings.Pcap("in.pcap", "./in.pcap"), null))
                .hasMessageContaining("input file");
    }

    @Test
    void afPacketOpensNoInterfaceByDefaultAndOnlyListedOnesOtherwise() {
        var lo = new DriverSettings.AfPacket("lo");

        assertThatThrownBy(() -> confinement(List.of()).check(lo, null))
                .hasMessageContaining("edp.engines.af-packet-interfaces").hasMessageContaining("empty");
        assertThatThrownBy(() -> confinement(List.of("veth0")).check(lo, null))
                .hasMessageContaining("edp.engines.af-packet-interfaces");
        assertThatCode(() -> confinement(List.of("veth0")).check(new DriverSettings.AfPacket("veth0"), null))
                .doesNotThrowAnyException();
    }
}
