package io.edp.manager.database;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Where the manager keeps its files ({@code EDP_DATA_DIR}): the embedded PostgreSQL lives in its {@code postgres}
 * subdirectory.
 *
 * @param dataDir the directory; default {@code $HOME/.edp}. The {@code HOME} of the environment, not Java's
 *                {@code user.home} (which comes from the password database), so that runs under different
 *                {@code $HOME}s keep different inventories.
 */
@ConfigurationProperties("edp")
public record DataDirectoryProperties(Path dataDir) {

    public DataDirectoryProperties {
        if (dataDir == null || dataDir.toString().isEmpty()) {
            dataDir = underHome(System.getenv("HOME"));
        }
    }

    /** {@code home/.edp}; Java's {@code user.home} only when the environment has no {@code HOME}. */
    static Path underHome(String home) {
        return Path.of(home == null || home.isBlank() ? System.getProperty("user.home") : home, ".edp");
    }

    /** The embedded PostgreSQL's cluster. */
    public Path postgres() {
        return dataDir.resolve("postgres");
    }
}
