package io.edp.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.net.httpserver.HttpServer;
import io.edp.engine.Engine;
import io.edp.engine.Mode;
import io.edp.engine.TestTopology;
import io.edp.engine.capture.CaptureFilter;
import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.capture.CaptureStats;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.time.ManualClock;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.engines.InProcessEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent's captures while its manager is away: a stopped capture's file stays in the capture directory through
 * failed uploads and reaches the manager once it answers again; only then is it deleted and the capture forgotten.
 * The manager is a local HTTP server that answers 503 (as while its database is away), then takes the uploads.
 */
class AgentCapturesTest {

    @TempDir
    Path dir;

    private final Engine engine = Engine.startStepped(TestTopology.config(Mode.EDP_STANDARD).build(),
            NicDrivers.withLoopback(), new ManualClock(0));
    private final HttpServer manager = manager();
    private volatile boolean away = true;
    private final Map<String, byte[]> uploads = new ConcurrentHashMap<>();
    private final Map<String, String> mediaTypes = new ConcurrentHashMap<>();

    @AfterEach
    void close() {
        manager.stop(0);
        engine.close();
    }

    @Test
    void aStoppedCapturesFileStaysUntilTheManagerTakesItThenGoes() throws Exception {
        var log = new ByteArrayOutputStream();
        var captures = new AgentCaptures(dir.resolve("capture"), new ManagerClient(List.of(URI.create(
                "http://127.0.0.1:" + manager.getAddress().getPort())), "esx-01", "token", "test"),
                line -> new PrintStream(log, true, StandardCharsets.UTF_8).println(line));
        Optional<HostEngine> handle = Optional.of(new InProcessEngine(engine));
        var id = UUID.randomUUID();
        var spec = CaptureSpec.of(0, CaptureSpec.Direction.BOTH, CaptureFilter.ALL, 10, Duration.ofMinutes(1));

        var started = answer(captures, new EngineRequest.StartCapture(id, spec), handle);
        assertThat(started.state()).isEqualTo(CaptureStats.State.RUNNING);
        var file = dir.resolve("capture").resolve(id + ".pcap");
        assertThat(file).exists();

        var stopped = answer(captures, new EngineRequest.StopCapture(id), handle);
        assertThat(stopped.state()).isEqualTo(CaptureStats.State.ENDED);
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("its file is uploaded later");
        captures.sweep();
        assertThat(file).as("kept while the manager is away").exists();
        assertThat(answer(captures, new EngineRequest.Capture(id), handle).endReason())
                .isEqualTo(CaptureStats.EndReason.STOPPED);

        var written = Files.readAllBytes(file);
        away = false;
        captures.sweep();
        assertThat(uploads.get("/file")).as("the whole file: a pcap header, no frame").hasSize(24)
                .isEqualTo(written);
        assertThat(mediaTypes.get("/file")).isEqualTo(AgentCaptures.PCAP);
        assertThat(new String(uploads.get("/stats"), StandardCharsets.UTF_8)).contains("\"state\":\"ENDED\"");
        assertThat(file).as("deleted once the manager took it").doesNotExist();
        assertThat(captures.answer(new EngineRequest.Capture(id), handle)).as("forgotten")
                .isEqualTo(AgentAnswer.of(null));
    }

    private static CaptureStats answer(AgentCaptures captures, EngineRequest.OfCapture request,
            Optional<HostEngine> handle) {
        var answer = captures.answer(request, handle);
        assertThat(answer.error()).as(request.toString()).isNull();
        return EngineJson.captureStats(answer.result());
    }

    /** Answers every upload 503 while {@link #away}, then 204, keeping the last body of each kind. */
    private HttpServer manager() {
        try {
            var server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                var body = exchange.getRequestBody().readAllBytes();
                var path = exchange.getRequestURI().getPath();
                if (away) {
                    exchange.sendResponseHeaders(503, -1);
                } else {
                    var kind = path.substring(path.lastIndexOf('/'));
                    uploads.put(kind, body);
                    mediaTypes.put(kind, exchange.getRequestHeaders().getFirst("Content-Type"));
                    exchange.sendResponseHeaders(204, -1);
                }
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
