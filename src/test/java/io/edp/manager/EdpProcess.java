package io.edp.manager;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.edp.EdpApplication;

/**
 * This program ({@link EdpApplication}: the manager, or a command such as {@code agent}) in a JVM of its own, as
 * {@code java -jar edp.jar} would run it: the main classes and the dependencies of this test run, without the test
 * classes (whose test configurations component scanning would pick up). Its output goes to a log file, whose end a
 * failing test quotes. {@link #kill()} is a {@code kill -9}: no shutdown hook, no graceful stop; {@link #pause()}
 * freezes it.
 */
public final class EdpProcess implements AutoCloseable {

    private static final int LOG_TAIL = 4_000;

    private final String name;
    private final Process process;
    private final Path log;

    private EdpProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code arguments} (program arguments of {@link EdpApplication#main}) logging to {@code log}. */
    public static EdpProcess start(String name, Path log, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"),
                // a small heap and C1 only: these processes are many, short-lived and not measured
                "-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError",
                "--enable-native-access=ALL-UNNAMED", "-cp", mainClassPath(), EdpApplication.class.getName()));
        command.addAll(arguments);
        try {
            Files.createDirectories(log.getParent());
            var process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            return new EdpProcess(name, process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /** The class path of this JVM without the test classes. */
    private static String mainClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.endsWith("test-classes") && !entry.endsWith("test-classes/"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    public String name() {
        return name;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, and waits until the process is gone. */
    public void kill() {
        process.destroyForcibly(); // SIGKILL on Linux
        awaitExit(10);
    }

    /** SIGSTOP: the process stays, frozen, with its connections open (a replica that hangs). */
    public void pause() {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        signal("CONT");
    }

    private void signal(String signal) {
        try {
            var kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + this + " exited " + kill.exitValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The end of its log, for failure messages. */
    public String logTail() {
        try {
            String text = Files.readString(log);
            return text.substring(Math.max(0, text.length() - LOG_TAIL));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** A graceful stop (SIGCONT, in case it is paused, and SIGTERM), then SIGKILL if it takes longer than 20 s. */
    @Override
    public void close() {
        if (process.isAlive()) {
            resume();
            process.destroy();
            if (!awaitExit(20)) {
                kill();
            }
        }
    }

    private boolean awaitExit(int seconds) {
        try {
            return process.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public String toString() {
        return name + (process.isAlive() ? " (pid " + process.pid() + ")" : " (exited " + process.exitValue() + ")");
    }
}
