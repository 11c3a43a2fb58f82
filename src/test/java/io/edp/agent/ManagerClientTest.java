package io.edp.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

/** Several manager replicas: a call that cannot reach one sends the next call to the next one. */
class ManagerClientTest {

    @Test
    void aReplicaThatCannotBeReachedIsLeftForTheNext() throws Exception {
        var server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        var paths = new ConcurrentLinkedQueue<String>();
        server.createContext("/", exchange -> {
            paths.add(exchange.getRequestURI().getPath() + " "
                    + exchange.getRequestHeaders().getFirst("Authorization"));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
        try {
            var live = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            var client = new ManagerClient(List.of(URI.create("http://127.0.0.1:" + closedPort()), live), "esx-01",
                    "secret", "dev");

            assertThatThrownBy(() -> client.desiredState(null, Duration.ofSeconds(1)))
                    .isInstanceOf(IOException.class);
            assertThat(client.desiredState(null, Duration.ofSeconds(1))).isEmpty();
            assertThat(client.desiredState(7L, Duration.ofSeconds(1))).as("it stays with the one that answers")
                    .isEmpty();
            assertThat(paths).containsExactly("/api/v1/agent/hosts/esx-01/desired-state Bearer secret",
                    "/api/v1/agent/hosts/esx-01/desired-state Bearer secret");
        } finally {
            server.stop(0);
        }
    }

    /** A loopback port nothing listens on: one just released. */
    private static int closedPort() throws IOException {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
