package io.edp.manager.database;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the embedded PostgreSQL that the manager starts when no {@code spring.datasource.url} is configured;
 * its data lives under the data directory ({@link DataDirectoryProperties}).
 *
 * @param port TCP port on 127.0.0.1; 0 picks a free one
 */
@ConfigurationProperties("edp.database.embedded")
public record EmbeddedDatabaseProperties(@DefaultValue("0") int port) {
}
