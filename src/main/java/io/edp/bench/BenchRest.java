package io.edp.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;

/** The REST calls a bench makes to set up what it measures; any answer but 2xx is an exception naming it. */
final class BenchRest {

    private static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String base;
    private final String authorization;

    /** {@code credentials}: {@code user:password}. */
    BenchRest(String base, String credentials) {
        this.base = base;
        this.authorization = basic(credentials);
    }

    static String basic(String credentials) {
        return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }

    /** The body of the 2xx answer to {@code method path} with {@code json} (null: no body). */
    String send(String method, String path, String json) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", authorization)
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        var response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return response.body();
    }

    /** The status of {@code GET path}, its body discarded. */
    int status(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", authorization)
                .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The {@code id} of the resource a body shows. */
    static String id(String body) {
        var matcher = ID.matcher(body);
        if (!matcher.find()) {
            throw new IllegalStateException("no id in " + body);
        }
        return matcher.group(1);
    }
}
