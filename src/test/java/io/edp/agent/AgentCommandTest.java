package io.edp.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad options print one line and a non-zero status, never a stack trace. */
class AgentCommandTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return AgentCommand.execute(args, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void missingOrUnknownOptionsPrintTheUsage() {
        assertThat(run("--manager", "http://127.0.0.1:8080", "--host", "esx-01")).isEqualTo(AgentCommand.EXIT_USAGE);
        assertThat(run("--manager", "http://m", "--host", "h", "--token-file", "t", "--turbo", "on"))
                .isEqualTo(AgentCommand.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(AgentCommand.USAGE).doesNotContain("Exception");
    }

    @Test
    void anUnreadableTokenFileSaysSo(@TempDir Path dir) {
        assertThat(run("--manager", "http://127.0.0.1:8080", "--host", "esx-01", "--token-file",
                dir.resolve("missing").toString())).isEqualTo(AgentCommand.EXIT_TOKEN);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("agent: token file").contains("missing");
    }
}
