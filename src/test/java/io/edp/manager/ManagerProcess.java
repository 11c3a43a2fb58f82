package io.edp.manager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A manager replica in a JVM of its own ({@link EdpProcess}) on a free port of 127.0.0.1, on the PostgreSQL named,
 * with an operator account {@value #OPERATOR}, loopback drivers only and its data directory under {@code dir}: for
 * tests of several replicas on one database, and of what a {@code kill -9} leaves.
 */
public final class ManagerProcess implements AutoCloseable {

    public static final String OPERATOR = "replica-operator";
    public static final String PASSWORD = "replica-secret";

    /** Where a replica's PostgreSQL is, and as whom to connect. */
    public record Database(String url, String username, String password) {
    }

    private final EdpProcess process;
    private final int port;
    private final LiveApi api;

    private ManagerProcess(EdpProcess process, int port) {
        this.process = process;
        this.port = port;
        this.api = new LiveApi(port);
    }

    /**
     * Starts a replica; returns at once ({@link #awaitReady}). {@code settings}: more {@code --name=value} settings,
     * which win over the defaults here.
     */
    public static ManagerProcess start(String name, Database database, Path dir, String... settings) {
        int port = freePort();
        List<String> arguments = new ArrayList<>(List.of("--server.port=" + port, "--server.address=127.0.0.1",
                "--spring.datasource.url=" + database.url(), "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--edp.data-dir=" + dir.resolve(name), "--edp.security.operator.user=" + OPERATOR,
                "--edp.security.operator.password={noop}" + PASSWORD, "--edp.engines.real-drivers=false",
                "--edp.engines.mbufs=4096", "--edp.engines.memory-budget=1GB", "--spring.main.banner-mode=off"));
        arguments.addAll(List.of(settings));
        return new ManagerProcess(EdpProcess.start(name, dir.resolve(name + ".log"), arguments), port);
    }

    private static int freePort() {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    /** Polls readiness until it answers 200; fails, quoting the log, when the process exits or the time runs out. */
    public ManagerProcess awaitReady(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!ready()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError(process + " not ready within " + within + "; its log ends:\n"
                        + process.logTail());
            }
            LockSupport.parkNanos(100_000_000);
        }
        return this;
    }

    /** Whether readiness answers 200 now (false while it does not answer at all). */
    public boolean ready() {
        try {
            HttpResponse<String> response = api.send(api.request("/actuator/health/readiness", OPERATOR, PASSWORD)
                    .timeout(Duration.ofSeconds(5)).build());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Its API as the operator: {@code api().request(path, OPERATOR, PASSWORD)}. */
    public LiveApi api() {
        return api;
    }

    public int port() {
        return port;
    }

    public EdpProcess process() {
        return process;
    }

    /** {@code kill -STOP}: it answers nothing and pushes nothing until {@link #resume()}. */
    public void pause() {
        process.pause();
    }

    public void resume() {
        process.resume();
    }

    /** {@code kill -9}. */
    public void kill() {
        process.kill();
    }

    @Override
    public void close() {
        process.close();
    }

    @Override
    public String toString() {
        return process + " on port " + port;
    }
}
