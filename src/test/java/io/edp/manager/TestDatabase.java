package io.edp.manager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
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

    /** Bounded: a deadlock lost once or twice is bad luck; more would be a lock order to fix, and should fail. */
    private static final int TRUNCATE_ATTEMPTS = 5;

    /**
     * Empties the inventory, so that a test starts from none. TRUNCATE locks its tables one after the other (those
     * named, then those CASCADE reaches), and the manager's background readers lock theirs in the order their FROM
     * clauses name them, which differ between queries (engine_request then host, host then host_agent, …): no single
     * order avoids every reader, and one may lock a table TRUNCATE has yet to reach while it waits for one TRUNCATE
     * holds. PostgreSQL then rolls one of the two back; when it is the TRUNCATE, it is run again.
     */
    public static void empty(JdbcTemplate jdbc) {
        for (int attempt = 1; ; attempt++) {
            try {
                // host_realization first: the reconciler's transactions start there too
                jdbc.execute("TRUNCATE host_realization, host, edp_profile, firewall_rule, route, segment_gateway, "
                        + "syslog_server, ipfix_collector, account, audit_event CASCADE");
                return;
            } catch (PessimisticLockingFailureException e) {
                if (attempt == TRUNCATE_ATTEMPTS) {
                    throw e;
                }
                log.info("Emptying the inventory lost a deadlock with a background reader (attempt {} of {}): {}",
                        attempt, TRUNCATE_ATTEMPTS, e.getMostSpecificCause().getMessage());
            }
        }
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
