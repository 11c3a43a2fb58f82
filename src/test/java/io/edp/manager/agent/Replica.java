package io.edp.manager.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.edp.manager.LiveApi;

/** A manager replica's API and its operator's credentials, for the tests that run two replicas. */
record Replica(LiveApi api, String user, String password) {

    /** The operator's request through this replica; {@code expected}: its status, or null for any. */
    HttpResponse<String> send(String method, String path, String json, Integer expected) throws Exception {
        var response = api.send(api.request(path, user, password)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").method(method, json == null
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json)).build());
        if (expected != null) {
            assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isEqualTo(expected);
        }
        return response;
    }
}
