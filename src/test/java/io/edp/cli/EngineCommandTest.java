package io.edp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.bench.HostCommand;
import io.edp.engine.nic.TestFrames;
import io.edp.engine.nic.afpacket.ThreadCapabilities;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code edp engine --config FILE}: one-line errors with distinct statuses, a clean stop on SIGTERM. */
class EngineCommandTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void unknownInterfaceIsOneLineNamingItAndErrno() throws IOException {
        Path config = write("""
                {"ports": [{"id": 1, "driver": "af_packet", "options": {"interface": "nosuch9edp"}}]}
                """);

        int status = command().execute(new String[] {"--config", config.toString()});

        assertThat(status).isEqualTo(EngineCommand.EXIT_NIC);
        assertThat(errors()).isEqualTo(
                "engine: af_packet nosuch9edp: if_nametoindex failed: ENODEV (no such interface)\n");
    }

    @Test
    void withoutCapNetRawTheLineSaysWhatIsMissing() throws Exception {
        Path config = write("""
                {"ports": [{"id": 1, "driver": "af_packet", "options": {"interface": "lo"}}]}
                """);
        AtomicInteger status = new AtomicInteger(-1);
        Thread thread = Thread.ofPlatform().start(() -> {
            ThreadCapabilities.dropNetRaw();
            status.set(command().execute(new String[] {"--config", config.toString()}));
        });
        thread.join();

        assertThat(status.get()).isEqualTo(EngineCommand.EXIT_NIC);
        assertThat(errors()).startsWith("engine: af_packet lo: socket(AF_PACKET, SOCK_RAW) failed: EPERM")
                .contains("needs CAP_NET_RAW").hasLineCount(1);
    }

    @Test
    void configMistakesNameTheField() throws IOException {
        Path missingInterface = write("""
                {"ports": [{"id": 1, "driver": "af_packet"}]}
                """);
        Path ambiguousMode = write("""
                {"mode": "STANDARD", "ports": [{"id": 1, "driver": "loopback"}]}
                """);

        assertThat(command().execute(new String[] {"--config", missingInterface.toString()}))
                .isEqualTo(EngineCommand.EXIT_CONFIG);
        assertThat(command().execute(new String[] {"--config", ambiguousMode.toString()}))
                .isEqualTo(EngineCommand.EXIT_CONFIG);
        assertThat(command().execute(new String[] {"--config"})).isEqualTo(EngineCommand.EXIT_USAGE);

        assertThat(errors().lines().toList()).containsExactly(
                "engine: config " + missingInterface + ": ports[id=1].driverOptions.interface is required",
                "engine: config " + ambiguousMode + ": mode: STANDARD is ambiguous; say LEGACY (the pre-EDP path, NSX "
                        + "'Standard') or EDP_STANDARD (the flow-cache path, NSX 'ENS_INTERRUPT')",
                "usage: engine --config FILE");
    }

    @Test
    void sigtermStopsTheEngineCleanlyAndTheCaptureIsComplete() throws Exception {
        Path input = dir.resolve("in.pcap");
        Path output = dir.resolve("out.pcap");
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            frames.add(TestFrames.udp(1000 + i % 10, 60));
        }
        TestFrames.writeCapture(input, frames);
        Path config = write("""
                {"mode": "EDP_STANDARD", "workers": 1, "statsIntervalSeconds": 1,
                 "ports": [
                   {"id": 1, "name": "replay", "driver": "pcap", "options": {"rxFile": "%s"}},
                   {"id": 2, "name": "capture", "driver": "pcap", "options": {"txFile": "%s"}}],
                 "routes": [{"prefix": "10.0.1.0/24", "nextHopMac": "02:00:00:00:00:99", "port": 2}]}
                """.formatted(input, output));
        Process engine = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "io.edp.EdpApplication", "engine", "--config", config.toString()).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(engine.getInputStream(), StandardCharsets.UTF_8))) {
            String line = reader.readLine();
            while (line != null && !line.contains("tx=200 ")) { // a statistics line once every frame went through
                lines.add(line);
                line = reader.readLine();
            }
            engine.toHandle().destroy(); // SIGTERM; Process.destroy() would also close our end of its output
            while (line != null) {
                lines.add(line);
                line = reader.readLine();
            }
        }

        assertThat(engine.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(engine.exitValue()).as(String.join("\n", lines)).isEqualTo(143); // 128 + SIGTERM, after the hook ran
        assertThat(lines).anyMatch(l -> l.startsWith("engine: EDP_STANDARD, 1 worker(s), 2 port(s)"));
        assertThat(lines.getLast()).startsWith("stopped: gen=1 rx=200 ").contains("tx=200 ");
        assertThat(HostCommand.run("tshark", "-r", output.toString()).lines().count()).isEqualTo(200);
    }

    private EngineCommand command() {
        return new EngineCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private Path write(String json) throws IOException {
        return Files.writeString(Files.createTempFile(dir, "engine", ".json"), json);
    }
}
