package io.edp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * No Docker engine runs the tests, so docker-compose.yml is checked as a document: it parses (with its anchors and
 * merge keys), and it names the services, settings and command line that README's "Docker" and "Replicas" sections
 * describe.
 */
class DockerComposeTest {

    private static final Path COMPOSE = Path.of("docker-compose.yml");
    private static final Path README = Path.of("README.md");

    @Test
    void composeRunsTwoReplicasOnOneDatabaseOnlyOneWithEmbeddedEngines() throws IOException {
        var app = service("app");
        var second = service("app-2");

        assertThat(environment(app).get("SPRING_DATASOURCE_URL")).as("both replicas on one database")
                .isEqualTo("jdbc:postgresql://postgres:5432/edp").isEqualTo(environment(second)
                        .get("SPRING_DATASOURCE_URL"));
        assertThat(environment(app)).containsEntry("EDP_ENGINES_EMBEDDED", "true");
        assertThat(environment(second)).containsEntry("EDP_ENGINES_EMBEDDED", "false");
        assertThat(app.get("ports")).isEqualTo(List.of("8080:8080"));
        assertThat(second.get("ports")).isEqualTo(List.of("8081:8080"));
        assertThat(second.get("healthcheck")).as("the second replica has the same readiness check")
                .isNotNull().isEqualTo(app.get("healthcheck"));
        assertThat(environment(second).get("EDP_OPERATOR_PASSWORD")).as("the same operator on both")
                .isEqualTo(environment(app).get("EDP_OPERATOR_PASSWORD"));
    }

    @Test
    void theAgentServiceRunsTheCommandReadmeShowsWithItsTokenAsASecret() throws IOException {
        var agent = service("agent");
        @SuppressWarnings("unchecked")
        var command = String.join(" ", (List<String>) agent.get("command"));

        assertThat(command).isEqualTo("agent --manager http://app:8080,http://app-2:8080 --host esx-01 "
                + "--token-file /run/secrets/edp-agent-token");
        assertThat(agent.get("secrets")).isEqualTo(List.of("edp-agent-token"));
        assertThat(compose().get("secrets")).as("the secret is declared")
                .isEqualTo(Map.of("edp-agent-token", Map.of("file", "./agent-token")));
        assertThat(agent.get("profiles")).as("plain `up` does not need the token file").isEqualTo(List.of("agent"));
        assertThat(Files.readString(README)).contains(command, "--profile agent", "./agent-token");
    }

    @Test
    void readmeNamesEveryServiceAndTheSettingThatSetsTheReplicasApart() throws IOException {
        @SuppressWarnings("unchecked")
        var services = ((Map<String, Object>) compose().get("services")).keySet();
        assertThat(services).containsExactlyInAnyOrder("postgres", "app", "app-2", "agent");

        String readme = Files.readString(README);
        for (String service : services) {
            assertThat(readme).as("README names service %s", service).contains("`" + service + "`");
        }
        assertThat(readme).contains("`EDP_ENGINES_EMBEDDED`", "`edp.engines.embedded`", "## Replicas");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> service(String name) throws IOException {
        var service = ((Map<String, Object>) compose().get("services")).get(name);
        assertThat(service).as("service %s", name).isNotNull();
        return (Map<String, Object>) service;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> environment(Map<String, Object> service) {
        return (Map<String, String>) service.get("environment");
    }

    private static Map<String, Object> compose() throws IOException {
        return new Yaml().load(Files.readString(COMPOSE));
    }
}
