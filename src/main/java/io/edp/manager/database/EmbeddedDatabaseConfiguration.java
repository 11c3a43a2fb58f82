package io.edp.manager.database;

import java.io.IOException;
import java.nio.file.Files;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The zero-configuration default: a real PostgreSQL server, started from the binaries packaged in the jar, with its
 * data in a directory that survives restarts. Any {@code spring.datasource.url} switches this off and Spring Boot's
 * own DataSource takes over.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(NoDatasourceUrlCondition.class)
@EnableConfigurationProperties({DataDirectoryProperties.class, EmbeddedDatabaseProperties.class})
class EmbeddedDatabaseConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedDatabaseConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(DataDirectoryProperties dataDirectory, EmbeddedDatabaseProperties properties)
            throws IOException {
        var directory = dataDirectory.postgres().toAbsolutePath();
        Files.createDirectories(directory);
        var reused = Files.exists(directory.resolve("PG_VERSION"));
        var postgres = EmbeddedPostgres.builder()
                .setDataDirectory(directory)
                .setCleanDataDirectory(false) // an existing cluster is reused, never wiped
                .setPort(properties.port())
                .start();
        log.info("Data directory {} (EDP_DATA_DIR): embedded PostgreSQL on port {} with {} cluster {}",
                dataDirectory.dataDir().toAbsolutePath(), postgres.getPort(), reused ? "its existing" : "a new",
                directory);
        return postgres;
    }

    /** The same pool settings as an external database's ({@code spring.datasource.hikari.*}). */
    @Bean(destroyMethod = "close")
    @ConfigurationProperties("spring.datasource.hikari")
    HikariDataSource dataSource(EmbeddedPostgres postgres) {
        var dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        dataSource.setPoolName("edp-embedded");
        dataSource.setMaximumPoolSize(10);
        return dataSource;
    }
}
