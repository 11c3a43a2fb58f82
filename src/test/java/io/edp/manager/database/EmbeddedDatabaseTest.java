package io.edp.manager.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;

/** The embedded default: a real PostgreSQL whose data survives a restart. */
class EmbeddedDatabaseTest {

    @TempDir
    Path dataDirectory;

    @Test
    void dataSurvivesARestartOnTheSameDirectory() throws Exception {
        var configuration = new EmbeddedDatabaseConfiguration();
        var data = new DataDirectoryProperties(dataDirectory);
        var properties = new EmbeddedDatabaseProperties(0);

        try (var postgres = configuration.embeddedPostgres(data, properties)) {
            new JdbcTemplate(postgres.getPostgresDatabase()).execute(
                    "CREATE TABLE survivor (name text); INSERT INTO survivor VALUES ('still here')");
        }
        try (var postgres = configuration.embeddedPostgres(data, properties)) {
            var name = new JdbcTemplate(postgres.getPostgresDatabase())
                    .queryForObject("SELECT name FROM survivor", String.class);
            assertThat(name).isEqualTo("still here");
        }
    }
}
