package io.edp.manager.packetlog;

import java.nio.file.Path;

import io.edp.manager.database.DataDirectoryProperties;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * The only directory the engines' packet-log files are written in: a host's {@code dfwLogging.file} is a name
 * inside it, so that an operator cannot append to or rotate away the manager's other files through it.
 */
@Component
@EnableConfigurationProperties({PacketLogDirectory.Properties.class, DataDirectoryProperties.class})
public class PacketLogDirectory {

    /** @param dir the directory; not set: {@code packet-log} under the data directory */
    @ConfigurationProperties("edp.packet-log")
    record Properties(Path dir) {
    }

    private final Path dir;

    PacketLogDirectory(Properties properties, DataDirectoryProperties data) {
        this.dir = (properties.dir() != null ? properties.dir() : data.dataDir().resolve("packet-log"))
                .toAbsolutePath().normalize();
    }

    /** The directory, absolute; the engine creates it with the first file. */
    public Path dir() {
        return dir;
    }
}
