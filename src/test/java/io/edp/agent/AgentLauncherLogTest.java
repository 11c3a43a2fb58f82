package io.edp.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The launcher's simulated agents share one log: each line stays whole, its host's name first. */
class AgentLauncherLogTest {

    @Test
    void linesOfAgentsLoggingAtOnceDoNotMerge() throws InterruptedException {
        var bytes = new ByteArrayOutputStream();
        var shared = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        List<Thread> agents = new ArrayList<>();
        for (int a = 0; a < 8; a++) {
            PrintStream log = AgentLauncher.prefixed(shared, "host-" + a);
            agents.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 2_000; i++) {
                    log.println("generation " + i + ": reconfigured");
                }
            }));
        }
        for (Thread agent : agents) {
            agent.join();
        }

        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(8 * 2_000)
                .allMatch(line -> line.matches("host-\\d generation \\d+: reconfigured"), "one whole line each");
    }
}
