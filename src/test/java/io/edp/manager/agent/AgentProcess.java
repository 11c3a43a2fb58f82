package io.edp.manager.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** An {@code edp agent} in a JVM of its own, on the test class path: killed as a real agent would be. */
final class AgentProcess implements AutoCloseable {

    private final Process process;
    private final Path output;

    private AgentProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    static AgentProcess start(String manager, String host, Path tokenFile, Path pcapDir) throws IOException {
        var java = ProcessHandle.current().info().command().orElseThrow();
        var output = Files.createTempFile("edp-agent-", ".log");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "io.edp.EdpApplication", "agent", "--manager", manager, "--host", host,
                "--token-file", tokenFile.toString(), "--pcap-dir", pcapDir.toString(), "--stats-interval", "300ms"));
        var process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        return new AgentProcess(process, output);
    }

    /** What the agent printed so far: for failure messages. */
    String log() {
        try {
            return Files.readString(output);
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    /** kill -9: no shutdown hook, no goodbye to the manager. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** SIGTERM, and waits for the agent to close its engine and exit. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            kill();
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
