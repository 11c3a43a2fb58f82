package io.edp.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Executors;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link TestDatabase#empty} survives the deadlock a background reader can cause, as the agents' engine request
 * listener's did (SELECT … FROM engine_request r JOIN host h: engine_request first, the table TRUNCATE reaches last).
 */
class TestDatabaseTest extends ManagerTest {

    @Autowired
    private DataSource dataSource;

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void emptyingRunsAgainWhenItLosesADeadlockWithAReader() throws Exception {
        createHost("esx-01");
        try (var reader = dataSource.getConnection(); var threads = Executors.newSingleThreadExecutor()) {
            reader.setAutoCommit(false);
            try (var statement = reader.createStatement()) {
                // waits longer than TRUNCATE before PostgreSQL checks for the cycle: the TRUNCATE is rolled back
                statement.execute("SET LOCAL deadlock_timeout = '60s'");
                statement.execute("SELECT count(*) FROM engine_request");
                var emptied = threads.submit(() -> TestDatabase.empty(jdbc));
                await("the TRUNCATE to wait for engine_request", () -> rows("pg_stat_activity WHERE datname = "
                        + "current_database() AND wait_event_type = 'Lock' AND query LIKE 'TRUNCATE%'"), n -> n > 0);
                statement.execute("SELECT count(*) FROM host"); // closes the cycle
                reader.commit();
                emptied.get();
            }
        }
        assertThat(rows("host")).isZero();
    }
}
