package io.edp.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a host tool (ip, trafgen, tshark, tcpdump) for a benchmark or a test and returns its standard output. */
public final class HostCommand {

    private HostCommand() {
    }

    /** Standard output of {@code command}; fails with its standard error when it exits non-zero or hangs. */
    public static String run(String... command) {
        return run(Map.of(), command);
    }

    /** As {@link #run(String...)}, with {@code environment} added to this process's environment. */
    public static String run(Map<String, String> environment, String... command) {
        Path errors = null;
        try {
            errors = Files.createTempFile("edp-command-", ".err");
            ProcessBuilder builder = new ProcessBuilder(command).redirectError(errors.toFile());
            builder.environment().putAll(environment);
            Process process = builder.start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " failed: " + Files.readString(errors));
            }
            return new String(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(String.join(" ", command) + " could not run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            if (errors != null) {
                errors.toFile().delete();
            }
        }
    }

    /** Those of {@code tools} that no directory on PATH holds as an executable file, in the order given. */
    public static List<String> missing(String... tools) {
        String path = System.getenv("PATH");
        List<String> missing = new ArrayList<>();
        for (String tool : tools) {
            boolean found = false;
            for (String directory : path == null ? new String[0] : path.split(java.io.File.pathSeparator)) {
                found |= !directory.isEmpty() && Files.isExecutable(Path.of(directory, tool));
            }
            if (!found) {
                missing.add(tool);
            }
        }
        return missing;
    }
}
