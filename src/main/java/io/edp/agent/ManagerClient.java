package io.edp.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.net.URLEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.edp.engine.capture.CaptureStats;

/**
 * The agent's HTTP calls to the manager, authenticated with the host's agent token. Any answer other than the
 * expected one is a {@link ManagerException} naming the status and the problem's detail. Given several manager
 * replicas, it talks to one at a time and moves on to the next when a call cannot reach it (the agent's backoff
 * then retries there), so the loss of a replica leaves the agent the others.
 */
final class ManagerClient {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Beyond the long poll's own wait: the time a manager may take to answer. */
    private static final Duration ANSWER_MARGIN = Duration.ofSeconds(15);

    private final HttpClient http;
    private final List<String> hostPaths;
    private final String token;
    private final String version;
    /** Which of {@link #hostPaths} the calls go to. */
    private volatile int current;

    /** {@code managers}: the replicas, tried in this order. */
    ManagerClient(List<URI> managers, String hostName, String token, String version) {
        this(http(), managers, hostName, token, version);
    }

    /**
     * Calls through {@code http}, which many agents in one JVM share ({@link AgentLauncher}): a client of its own
     * per agent is a selector thread and a pool of threads per agent, hundreds of threads competing for the CPU as
     * a change's answers arrive together.
     */
    ManagerClient(HttpClient http, List<URI> managers, String hostName, String token, String version) {
        this.http = http;
        this.hostPaths = managers.stream().map(manager -> manager.toString().replaceAll("/+$", "")
                + "/api/v1/agent/hosts/" + URLEncoder.encode(hostName, StandardCharsets.UTF_8)).toList();
        this.token = token;
        this.version = version;
    }

    /** An answer the agent did not expect: its status, and the detail of the manager's problem. */
    static final class ManagerException extends IOException {
        final int status;

        ManagerException(int status, String body) {
            super("manager answered " + status + ": " + body);
            this.status = status;
        }
    }

    /** A client for agents' calls. */
    static HttpClient http() {
        return HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
    }

    /** The whole desired state, once it is not {@code after} (null: now); empty when {@code wait} ran out. */
    Optional<AgentDesiredState> desiredState(Long after, Duration wait) throws IOException, InterruptedException {
        var query = "?wait=" + wait.toSeconds() + "s" + (after == null ? "" : "&after=" + after);
        var response = send(request("/desired-state" + query).timeout(wait.plus(ANSWER_MARGIN)).GET());
        if (response.statusCode() == 204) {
            return Optional.empty();
        }
        expect(response, 200);
        return Optional.of(EngineJson.MAPPER.readValue(response.body(), AgentDesiredState.class));
    }

    void report(AgentRealizationReport report) throws IOException, InterruptedException {
        expect(put("/realization", report), 204);
    }

    void stats(AgentStatsReport report) throws IOException, InterruptedException {
        expect(put("/stats", report), 204);
    }

    /** Answers a request to the engine; 404 (its caller stopped waiting) is a {@link ManagerException} too. */
    void answer(UUID requestId, AgentAnswer answer) throws IOException, InterruptedException {
        expect(put("/engine-requests/" + requestId, answer), 204);
    }

    /**
     * Uploads the first {@code length} bytes of a capture's file ({@code mediaType}: its format), then its state;
     * 404 (the manager removed the capture) is a {@link ManagerException} too.
     */
    void uploadCapture(UUID captureId, Path file, long length, String mediaType, CaptureStats stats)
            throws IOException, InterruptedException {
        byte[] bytes; // at most the capture's limits allow: the manager holds them in memory too
        try (var in = Files.newInputStream(file)) {
            bytes = in.readNBytes(Math.toIntExact(length));
        }
        expect(send(request("/captures/" + captureId + "/file").timeout(ANSWER_MARGIN)
                .header("Content-Type", mediaType).PUT(HttpRequest.BodyPublishers.ofByteArray(bytes))), 204);
        expect(put("/captures/" + captureId + "/stats", stats), 204);
    }

    private HttpResponse<String> put(String path, Object body) throws IOException, InterruptedException {
        return send(request(path).timeout(ANSWER_MARGIN).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(EngineJson.MAPPER.writeValueAsString(body))));
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(hostPaths.get(current) + path))
                .header("Authorization", "Bearer " + token)
                .header(AgentHeaders.VERSION, version);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        var built = request.build();
        try {
            return http.send(built, HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw e; // a long poll that outlived its wait: the replica is there
        } catch (IOException e) {
            moveOn(built.uri());
            throw e;
        }
    }

    /** The next replica, unless another call (the statistics thread's) has moved on from the failed one already. */
    private void moveOn(URI failed) {
        int used = current;
        if (failed.toString().startsWith(hostPaths.get(used))) {
            current = (used + 1) % hostPaths.size();
        }
    }

    private static void expect(HttpResponse<String> response, int status) throws ManagerException {
        if (response.statusCode() != status) {
            throw new ManagerException(response.statusCode(), response.body());
        }
    }
}
