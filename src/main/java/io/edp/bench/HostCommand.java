package io.edp.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Runs a host tool (ip, trafgen, tshark, tcpdump) for a benchmark or a test and returns its standard output. */
public final class HostCommand {

    private HostCommand() {
    }

    /** Standard output of {@code command}; fails with its standard error when it exits non-zero or hangs. */
    public static String run(String... command) {
        Path errors = null;
        try {
            errors = Files.createTempFile("edp-command-", ".err");
            Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
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
}
