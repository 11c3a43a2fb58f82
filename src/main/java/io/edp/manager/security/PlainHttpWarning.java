package io.edp.manager.security;

import java.net.InetAddress;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * HTTP Basic sends the password with every request: served over plain HTTP to the network, anyone on the path
 * reads it. Said once at start-up, when the server listens beyond loopback without TLS (README, "TLS").
 */
@Component
class PlainHttpWarning implements ApplicationListener<WebServerInitializedEvent> {

    private static final Logger log = LoggerFactory.getLogger(PlainHttpWarning.class);

    private final ServerProperties server;

    PlainHttpWarning(ServerProperties server) {
        this.server = server;
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        warning(Ssl.isEnabled(server.getSsl()), server.getAddress(), event.getWebServer().getPort())
                .ifPresent(log::warn);
    }

    /** The warning for a server on {@code address} (null: every interface), if it deserves one. */
    static Optional<String> warning(boolean tls, InetAddress address, int port) {
        if (tls || address != null && address.isLoopbackAddress()) {
            return Optional.empty();
        }
        var where = address == null || address.isAnyLocalAddress() ? "every interface" : address.getHostAddress();
        return Optional.of("HTTP Basic credentials are served over plain HTTP on " + where + ", port " + port
                + ": anyone on the network path can read them. Serve HTTPS (server.ssl.bundle, README \"TLS\") or "
                + "listen on loopback only (server.address=127.0.0.1) behind a TLS proxy.");
    }
}
