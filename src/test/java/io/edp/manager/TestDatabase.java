package io.edp.manager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * Chooses the real PostgreSQL of the manager's tests, in this order: the server that {@code SPRING_DATASOURCE_URL}
 * names (CI); a Testcontainers PostgreSQL when a Docker engine answers; otherwise an embedded PostgreSQL. Whichever
 * it is, one server serves every Spring context of the test run, so that contexts that live side by side (the
 * shared one and those with a real port) never compete for a data directory.
 */
public final class TestDatabase {

    private static final Logger log = LoggerFactory.getLogger(TestDatabase.class);
    private static final String IMAGE = "postgres:17-alpine";

    private static Server server;

    private TestDatabase() {
    }

    /** Where to connect, and as whom. */
    private record Server(String url, String username, String password) {
    }

    /** Empties the inventory, so that a test starts from none. */
    public static void empty(JdbcTemplate jdbc) {
        // host_realization first: the reconciler's transactions start there too, so TRUNCATE's exclusive locks
        // are taken in the same order as theirs and cannot deadlock with them
        jdbc.execute("TRUNCATE host_realization, host, edp_profile, firewall_rule, route, segment_gateway, "
                + "syslog_server, ipfix_collector, account, audit_event CASCADE");
    }

    /**
     * The server as the environment a manager of its own process reads ({@code SPRING_DATASOURCE_URL},
     * {@code _USERNAME}, {@code _PASSWORD}): this process's environment when it names one, else the server the
     * tests run on.
     */
    public static synchronized Map<String, String> environment() {
        if (System.getenv("SPRING_DATASOURCE_URL") != null) {
            return System.getenv();
        }
        var server = server();
        return Map.of("SPRING_DATASOURCE_URL", server.url(), "SPRING_DATASOURCE_USERNAME", server.username(),
                "SPRING_DATASOURCE_PASSWORD", server.password());
    }

    public static synchronized void register(DynamicPropertyRegistry registry) {
        if (System.getenv("SPRING_DATASOURCE_URL") != null) {
            return;
        }
        var server = server();
        registry.add("spring.datasource.url", server::url);
        registry.add("spring.datasource.username", server::username);
        registry.add("spring.datasource.password", server::password);
    }

    private static synchronized Server server() {
        if (server == null) {
            server = DockerClientFactory.instance().isDockerAvailable() ? container() : embedded();
        }
        return server;
    }

    private static Server container() {
        var container = new PostgreSQLContainer(IMAGE);
        container.start(); // stopped by Testcontainers' reaper when the JVM exits
        return new Server(container.getJdbcUrl(), container.getUsername(), container.getPassword());
    }

    /** A fresh cluster in a temporary directory of this JVM's own, on a free port; removed when the JVM exits. */
    private static Server embedded() {
        try {
            var postgres = EmbeddedPostgres.builder().start(); // its shutdown hook stops it and deletes its data
            log.info("No SPRING_DATASOURCE_URL and no Docker engine: the tests use an embedded PostgreSQL on port {}",
                    postgres.getPort());
            return new Server(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the tests' embedded PostgreSQL", e);
        }
    }
}
