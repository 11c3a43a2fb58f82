package io.edp.manager;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import com.jayway.jsonpath.JsonPath;

/**
 * The API of a manager started on a real port, over real HTTP with HTTP Basic: for the tests that need a connection
 * MockMvc does not make (server-sent events, a browser).
 */
public final class LiveApi {

    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;

    public LiveApi(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    public String base() {
        return base;
    }

    public HttpRequest.Builder request(String path, String user, String password) {
        return HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Basic "
                + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }

    public HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    public HttpClient client() {
        return http;
    }

    /** POSTs JSON as {@code user}, expects 201, returns the new resource's id. */
    public UUID create(String path, String json, String user, String password) throws Exception {
        var response = send(request(path, user, password).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
        if (response.statusCode() != 201) {
            throw new AssertionError("POST " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return UUID.fromString(JsonPath.read(response.body(), "$.id"));
    }

    /**
     * A host whose loopback uplink vmnic0 (two RX queues, steered over two workers) switches to a VM's virtual NIC
     * 00:50:56:aa:bb:01, under EDP_STANDARD; returns once its fast path runs.
     */
    public UUID hostWithAVm(String name, String user, String password) throws Exception {
        var hostId = writeHostWithAVm(name, user, password).hostId();
        await("the fast path to run", () -> send(request("/api/v1/hosts/" + hostId + "/stats/flow-cache", user,
                password).build()).body(), body -> body.contains("\"mode\":\"EDP_STANDARD\""));
        return hostId;
    }

    /** A host and the generation its last write left desired (its {@code EDP-Generation}). */
    public record WrittenHost(UUID hostId, long generation) {
    }

    /** The host of {@link #hostWithAVm}, written without waiting for any engine to run it. */
    public WrittenHost writeHostWithAVm(String name, String user, String password) throws Exception {
        return writeHostWithAVm(name, "EMBEDDED", user, password);
    }

    /** The host of {@link #hostWithAVm} with its engine placed {@code placement} (EMBEDDED or AGENT). */
    public WrittenHost writeHostWithAVm(String name, String placement, String user, String password)
            throws Exception {
        var hostId = create("/api/v1/hosts", """
                {"name": "%s", "managementAddress": "192.0.2.11", "placement": "%s",
                 "numaNodes": [{"id": 0, "cpuCores": [0, 1, 2, 3]}]}""".formatted(name, placement), user, password);
        create("/api/v1/hosts/" + hostId + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""", user, password);
        var vm = create("/api/v1/hosts/" + hostId + "/vms", """
                {"name": "web", "vcpus": 2, "numaNode": 0}""", user, password);
        create("/api/v1/hosts/" + hostId + "/vms/" + vm + "/vnics", """
                {"mac": "00:50:56:aa:bb:01", "vlan": 0, "adapterType": "VMXNET3", "rxQueues": 1}""", user, password);
        var edp = send(request("/api/v1/hosts/" + hostId + "/edp", user, password)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"settings\": {\"mode\": \"EDP_STANDARD\"}}")).build());
        if (edp.statusCode() != 200) {
            throw new AssertionError("PUT edp answered " + edp.statusCode() + ": " + edp.body());
        }
        return new WrittenHost(hostId, Long.parseLong(edp.headers().firstValue("EDP-Generation").orElseThrow()));
    }

    /** Starts traffic of 100 flows at {@code packetsPerSecond} from vmnic0 to the VM, for at most a minute. */
    public void startTraffic(UUID hostId, long packetsPerSecond, String user, String password) throws Exception {
        var response = send(request("/api/v1/hosts/" + hostId + "/traffic", user, password)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"nic": "vmnic0", "flows": 100, "packetsPerSecond": %d, "durationSeconds": 60,
                         "destinationMac": "00:50:56:aa:bb:01"}""".formatted(packetsPerSecond))).build());
        if (response.statusCode() != 201) {
            throw new AssertionError("starting traffic answered " + response.statusCode() + ": " + response.body());
        }
    }

    public interface Read<T> {
        T get() throws Exception;
    }

    /** Polls {@code read} every 10 ms until {@code done} holds; fails after {@code within}. No fixed sleeps. */
    public static <T> T await(String what, Duration within, Read<T> read, Predicate<T> done) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        T last = read.get();
        while (!done.test(last)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + "; last seen: " + last);
            }
            LockSupport.parkNanos(10_000_000);
            last = read.get();
        }
        return last;
    }

    public static <T> T await(String what, Read<T> read, Predicate<T> done) throws Exception {
        return await(what, Duration.ofSeconds(30), read, done);
    }
}
