package io.edp.manager.database;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the embedded PostgreSQL that the manager starts when no {@code spring.datasource.url} is configured.
 *
 * @param dataDirectory where the cluster lives; reused on every start, so the inventory survives restarts
 * @param port          TCP port on 127.0.0.1; 0 picks a free one
 */
@ConfigurationProperties("edp.database.embedded")
public record EmbeddedDatabaseProperties(Path dataDirectory, @DefaultValue("0") int port) {

    public EmbeddedDatabaseProperties {
        if (dataDirectory == null) {
            dataDirectory = Path.of(System.getProperty("user.home"), ".edp", "postgres");
        }
    }
}
