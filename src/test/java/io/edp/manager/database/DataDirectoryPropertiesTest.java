package io.edp.manager.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The data directory ({@code EDP_DATA_DIR}): where it is by default and what lives in it. */
class DataDirectoryPropertiesTest {

    @Test
    void defaultIsDotEdpUnderTheHomeOfTheEnvironment() {
        assertThat(DataDirectoryProperties.underHome("/home/alice")).isEqualTo(Path.of("/home/alice/.edp"));
        assertThat(DataDirectoryProperties.underHome(null))
                .isEqualTo(Path.of(System.getProperty("user.home"), ".edp"));
    }

    @Test
    void theEmbeddedPostgresqlLivesInItsPostgresSubdirectory() {
        var properties = bind(Map.of("edp.data-dir", "/srv/edp"));

        assertThat(properties.dataDir()).isEqualTo(Path.of("/srv/edp"));
        assertThat(properties.postgres()).isEqualTo(Path.of("/srv/edp/postgres"));
    }

    @Test
    void anEmptySettingMeansTheDefault() {
        // application.yaml maps an unset EDP_DATA_DIR onto an empty value
        assertThat(bind(Map.of("edp.data-dir", "")).dataDir())
                .isEqualTo(DataDirectoryProperties.underHome(System.getenv("HOME")));
    }

    private static DataDirectoryProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings)).bindOrCreate("edp",
                DataDirectoryProperties.class);
    }
}
