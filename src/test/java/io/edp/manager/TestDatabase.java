package io.edp.manager;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * Chooses the real PostgreSQL of the manager's tests, in this order: the server that {@code SPRING_DATASOURCE_URL}
 * names (CI); a Testcontainers PostgreSQL when a Docker engine answers; otherwise the embedded PostgreSQL that the
 * application starts by itself (nothing to register).
 */
final class TestDatabase {

    private static final Logger log = LoggerFactory.getLogger(TestDatabase.class);
    private static final String IMAGE = "postgres:17-alpine";

    private static PostgreSQLContainer container;

    private TestDatabase() {
    }

    static synchronized void register(DynamicPropertyRegistry registry) {
        if (System.getenv("SPRING_DATASOURCE_URL") != null) {
            return;
        }
        if (container == null) {
            if (!DockerClientFactory.instance().isDockerAvailable()) {
                log.info("No SPRING_DATASOURCE_URL and no Docker engine: the tests use the embedded PostgreSQL");
                return;
            }
            container = new PostgreSQLContainer(IMAGE);
            container.start(); // stopped by Testcontainers' reaper when the JVM exits
        }
        registry.add("spring.datasource.url", container::getJdbcUrl);
        registry.add("spring.datasource.username", container::getUsername);
        registry.add("spring.datasource.password", container::getPassword);
    }
}
