package io.edp.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts this program again in a JVM of its own — the same java binary, JVM flags and jar (or class path) as the
 * running one, read from {@link ProcessHandle.Info} — so that one benchmark case's JIT profile, heap and
 * memory layout cannot leak into the next one's.
 */
final class ForkedJvm {

    private final List<String> launcher;

    private ForkedJvm(List<String> launcher) {
        this.launcher = launcher;
    }

    /**
     * The launcher of the running JVM, which was started with program arguments {@code programArguments}: its
     * command line without them. Fails, naming what it could not tell, when the command line is not available.
     */
    static ForkedJvm ofCurrent(List<String> programArguments) {
        ProcessHandle.Info info = ProcessHandle.current().info();
        String java = info.command().orElseThrow(() -> new IllegalStateException(
                "cannot tell which java binary runs this JVM (ProcessHandle.Info.command() is empty)"));
        // the JDK leaves the arguments out when the command line is longer than it reads (a long class path)
        String[] arguments = info.arguments().orElseGet(ForkedJvm::commandLineArguments);
        int flags = arguments.length - programArguments.size();
        if (flags < 0 || !Arrays.asList(arguments).subList(flags, arguments.length).equals(programArguments)) {
            throw new IllegalStateException("cannot tell this JVM's flags: its command line does not end with "
                    + String.join(" ", programArguments) + " (start it as java [flags] -jar edp.jar ...)");
        }
        List<String> launcher = new ArrayList<>();
        launcher.add(java);
        launcher.addAll(Arrays.asList(arguments).subList(0, flags));
        return new ForkedJvm(List.copyOf(launcher));
    }

    /**
     * The java binary of the running JVM with {@code jvmFlags}, then {@code -jar} the jar it runs from, or (in a
     * test, on a class path of directories) that class path and {@code io.edp.EdpApplication}: for processes that
     * need their own heap size rather than this JVM's flags.
     */
    static ForkedJvm ofClassPath(List<String> jvmFlags) {
        String java = ProcessHandle.current().info().command().orElseThrow(() -> new IllegalStateException(
                "cannot tell which java binary runs this JVM (ProcessHandle.Info.command() is empty)"));
        String classPath = System.getProperty("java.class.path");
        List<String> launcher = new ArrayList<>(List.of(java));
        launcher.addAll(jvmFlags);
        // in edp.jar the classes sit inside the jar (BOOT-INF), which only its own launcher reads
        boolean bootJar = ForkedJvm.class.getProtectionDomain().getCodeSource().getLocation().toString()
                .contains("BOOT-INF");
        launcher.addAll(bootJar ? List.of("-jar", classPath) : List.of("-cp", classPath, "io.edp.EdpApplication"));
        return new ForkedJvm(List.copyOf(launcher));
    }

    /**
     * Starts the program with {@code programArguments} and {@code environment} added to this one's (secrets: not
     * on a command line), its standard output and error going to {@code log}.
     */
    Process start(List<String> programArguments, Map<String, String> environment, Path log) {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(programArguments);
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        }
    }

    /** The arguments of this process from {@code /proc/self/cmdline}, without the command. */
    private static String[] commandLineArguments() {
        try {
            String[] all = Files.readString(Path.of("/proc/self/cmdline")).split("\0");
            return Arrays.copyOfRange(all, 1, all.length);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot tell this JVM's flags: /proc/self/cmdline unreadable", e);
        }
    }

    List<String> launcher() {
        return launcher;
    }

    /** This launcher with one more JVM flag, ahead of the ones it has. */
    ForkedJvm withFlag(String flag) {
        List<String> flagged = new ArrayList<>(launcher);
        flagged.add(1, flag);
        return new ForkedJvm(List.copyOf(flagged));
    }

    /**
     * Runs the program with {@code programArguments} and returns its standard output; fails with the end of its
     * standard error when it exits non-zero or outlives {@code timeout}.
     */
    String run(List<String> programArguments, Duration timeout) {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(programArguments);
        Path output = null;
        Path errors = null;
        try {
            output = Files.createTempFile("edp-fork-", ".out");
            errors = Files.createTempFile("edp-fork-", ".err");
            Process process = new ProcessBuilder(command).redirectOutput(output.toFile())
                    .redirectError(errors.toFile()).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException(String.join(" ", programArguments) + " ran longer than " + timeout);
            }
            if (process.exitValue() != 0) {
                String stderr = Files.readString(errors).strip();
                throw new IllegalStateException(String.join(" ", programArguments) + " exited with "
                        + process.exitValue() + ": " + stderr.substring(Math.max(0, stderr.length() - 2_000)));
            }
            return Files.readString(output);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            delete(output);
            delete(errors);
        }
    }

    private static void delete(Path file) {
        if (file != null) {
            file.toFile().delete();
        }
    }
}
