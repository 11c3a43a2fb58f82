package io.edp.manager;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A test of a manager serving on a real port (a subclass's {@code @SpringBootTest(webEnvironment = RANDOM_PORT)}),
 * on the test database emptied before each test, with a client of its API.
 */
public abstract class LiveServerTest {

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcTemplate jdbc;

    protected LiveApi api;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
    }

    @BeforeEach
    void emptyDatabaseAndApi() {
        TestDatabase.empty(jdbc);
        api = new LiveApi(port);
    }
}
