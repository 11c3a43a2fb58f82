package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The served OpenAPI document must equal the committed contract, openapi/edp-api.yaml (compared as parsed YAML).
 * Run with {@code -Dedp.openapi.write=true} to rewrite the committed file from the running application.
 */
class OpenApiContractTest extends ManagerTest {

    private static final Path CONTRACT = Path.of("openapi", "edp-api.yaml");
    private static final String REGENERATE = "./mvnw test -Dtest=OpenApiContractTest -Dedp.openapi.write=true";

    @Test
    void servedContractEqualsTheCommittedFile() throws Exception {
        var served = mvc.perform(get("/v3/api-docs.yaml"))
                .andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8);
        if (Boolean.getBoolean("edp.openapi.write")) {
            Files.createDirectories(CONTRACT.getParent());
            Files.writeString(CONTRACT, served);
        }

        assertThat(Files.exists(CONTRACT)).as("%s is missing; create it with: %s", CONTRACT, REGENERATE).isTrue();
        Object committed = new Yaml().load(Files.readString(CONTRACT));
        var differences = new ArrayList<String>();
        compare("", committed, new Yaml().load(served), differences);
        assertThat(differences)
                .as("The served OpenAPI (/v3/api-docs.yaml) differs from %s at the paths below. If the API change is "
                        + "intended, regenerate the file with:%n    %s%nand commit it.", CONTRACT, REGENERATE)
                .isEmpty();
    }

    /** Collects the paths at which two parsed YAML documents differ (at most 20). */
    private static void compare(String path, Object committed, Object served, List<String> differences) {
        if (differences.size() >= 20) {
            return;
        }
        if (committed instanceof Map<?, ?> left && served instanceof Map<?, ?> right) {
            var keys = new TreeSet<String>();
            left.keySet().forEach(key -> keys.add(String.valueOf(key)));
            right.keySet().forEach(key -> keys.add(String.valueOf(key)));
            for (var key : keys) {
                compare(path + "/" + key, left.get(key), right.get(key), differences);
            }
        } else if (committed instanceof List<?> left && served instanceof List<?> right
                && left.size() == right.size()) {
            for (int i = 0; i < left.size(); i++) {
                compare(path + "/" + i, left.get(i), right.get(i), differences);
            }
        } else if (!Objects.equals(committed, served)) {
            differences.add((path.isEmpty() ? "/" : path) + ": committed " + brief(committed)
                    + ", served " + brief(served));
        }
    }

    private static String brief(Object value) {
        var text = String.valueOf(value);
        return text.length() > 80 ? text.substring(0, 77) + "..." : text;
    }
}
