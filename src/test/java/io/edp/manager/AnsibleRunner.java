package io.edp.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs Debian's ansible-core ({@code ansible-playbook} or ad-hoc {@code ansible}) as the tests' real client of the
 * manager, with the edp.manager collection of this repository.
 */
final class AnsibleRunner {

    static final Path COLLECTIONS = Path.of("ansible", "collections");
    static final String ANSIBLE_PLAYBOOK = "/usr/bin/ansible-playbook";

    private AnsibleRunner() {
    }

    /** What a run left: its exit status and its output (stdout and stderr). */
    record Run(int exit, String log) {
    }

    /** Runs a playbook on localhost with these arguments; fails with its output unless it succeeds. */
    static String playbook(Path work, Path playbook, List<String> arguments) throws IOException, InterruptedException {
        var command = new ArrayList<>(List.of(ANSIBLE_PLAYBOOK, "-i", "localhost,", playbook.toString()));
        command.addAll(arguments);
        var run = run(work, command, Map.of());
        assertThat(run.exit()).as("ansible-playbook's exit status; output:%n%s", run.log()).isZero();
        return run.log();
    }

    /** Runs the command (its first element: the ansible binary) with these environment variables, 180 s at most. */
    static Run run(Path work, List<String> command, Map<String, String> environment)
            throws IOException, InterruptedException {
        assertThat(Files.isExecutable(Path.of(command.getFirst()))).as("%s is missing: apt-get install ansible-core",
                command.getFirst()).isTrue();
        Path output = Files.createTempFile(work, "ansible", ".log");
        var process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        process.environment().put("ANSIBLE_NOCOLOR", "1");
        process.environment().put("ANSIBLE_PIPELINING", "1");
        process.environment().put("ANSIBLE_PYTHON_INTERPRETER", "/usr/bin/python3");
        process.environment().put("ANSIBLE_COLLECTIONS_PATH", COLLECTIONS.toAbsolutePath().toString());
        process.environment().put("ANSIBLE_LOCAL_TEMP", work.resolve("ansible-tmp").toString());
        process.environment().putAll(environment);
        var running = process.start();
        boolean exited = running.waitFor(180, TimeUnit.SECONDS);
        if (!exited) {
            running.destroyForcibly();
        }
        String log = Files.readString(output);
        assertThat(exited).as("%s finished within 180 s; output:%n%s", command.getFirst(), log).isTrue();
        return new Run(running.exitValue(), log);
    }
}
