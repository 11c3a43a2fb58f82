package io.edp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bench that lacks what it needs says so in one line and exits non-zero, before it prints any row (bench
 * afpacket with {@code --peer ovs} needs Open vSwitch too; bench api needs wrk, unless told to use its built-in
 * generator). bench tlb and bench push need no host tool (the loopback NIC and the embedded PostgreSQL are in the
 * jar); bench engine needs the command line of its own JVM, to fork it.
 */
class MissingToolTest {

    @TempDir
    Path bin;

    @Test
    void afpacketWithoutTrafgenOnThePathNamesItAndExitsNonZero() throws Exception {
        for (String tool : List.of("ip", "sysctl", "setsid", "kill")) {
            Files.createSymbolicLink(bin.resolve(tool), locate(tool));
        }
        Outcome outcome = bench(bin, "afpacket");
        assertThat(outcome.exitCode()).isEqualTo(1);
        assertThat(outcome.output()).isEqualTo("bench afpacket: not found on PATH: trafgen (Debian: sudo apt-get "
                + "install -y iproute2 netsniff-ng procps util-linux)");
    }

    @Test
    void afpacketDriversOnlyOnAnEmptyPathNamesEveryMissingTool() throws Exception {
        Outcome outcome = bench(bin, "afpacket", "--drivers-only");
        assertThat(outcome.exitCode()).isEqualTo(1);
        assertThat(outcome.output().lines()).hasSize(1);
        assertThat(outcome.output()).startsWith("bench afpacket: not found on PATH: ip, sysctl, trafgen, setsid, kill");
    }

    @Test
    void afpacketPeerOvsWithoutOpenVswitchNamesItsToolsAndTheDebianPackage() throws Exception {
        for (String tool : List.of("ip", "sysctl", "trafgen", "setsid", "kill", "taskset")) {
            Files.createSymbolicLink(bin.resolve(tool), locate(tool));
        }
        Outcome outcome = bench(bin, "afpacket", "--peer", "ovs");
        assertThat(outcome.exitCode()).isEqualTo(1);
        assertThat(outcome.output()).isEqualTo("bench afpacket: not found on PATH: ovsdb-tool, ovsdb-server, "
                + "ovs-vswitchd, ovs-vsctl, ovs-ofctl, ovs-appctl (Debian: sudo apt-get install -y iproute2 "
                + "netsniff-ng procps util-linux openvswitch-switch)");
    }

    @Test
    void afpacketPeerOvsOnAnEmptyPathNamesTrafgenAndOpenVswitchInOneLine() throws Exception {
        Outcome outcome = bench(bin, "afpacket", "--peer", "ovs", "--rounds", "5");
        assertThat(outcome.exitCode()).isEqualTo(1);
        assertThat(outcome.output().lines()).singleElement().asString()
                .startsWith("bench afpacket: not found on PATH: ip, sysctl, trafgen, setsid, kill, ovsdb-tool,")
                .endsWith("netsniff-ng procps util-linux openvswitch-switch)");
    }

    @Test
    void apiWithoutWrkOnThePathNamesItBeforeStartingTheManager() throws Exception {
        Outcome outcome = bench(bin, "api");
        assertThat(outcome.exitCode()).isEqualTo(1);
        assertThat(outcome.output()).isEqualTo("bench api: not found on PATH: wrk (Debian: sudo apt-get install -y "
                + "wrk), or measure with the built-in generator: --load=builtin");
    }

    @Test
    void engineThatCannotTellHowItsJvmWasStartedSaysSoAndExitsNonZero() {
        // this test's JVM was started by the test runner, not with "bench engine": it cannot fork itself
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int status = BenchCommand.run(new String[] {"engine", "--quick"}, new PrintStream(out), new PrintStream(err));
        assertThat(status).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8).lines()).singleElement().asString()
                .startsWith("bench engine: cannot tell this JVM's flags");
    }

    private record Outcome(int exitCode, String output) {
    }

    /** Runs {@code edp bench args} in a JVM of its own with {@code path} as its only PATH. */
    private static Outcome bench(Path path, String... args) throws IOException, InterruptedException {
        var command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), "io.edp.EdpApplication", "bench"));
        command.addAll(List.of(args));
        var builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PATH", path.toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Outcome(process.exitValue(), output);
    }

    private static Path locate(String tool) {
        for (String directory : System.getenv("PATH").split(":")) {
            if (Files.isExecutable(Path.of(directory, tool))) {
                return Path.of(directory, tool);
            }
        }
        throw new IllegalStateException(tool + " is not installed here");
    }
}
