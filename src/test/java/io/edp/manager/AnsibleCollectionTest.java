package io.edp.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The edp.manager Ansible collection (ansible/collections), run by the real ansible-playbook against the running
 * manager: the playbook that uses every module converges on its first run and changes nothing on its second; a
 * refused change fails with the manager's problem detail; check mode (the manager's dry runs) reports a fresh
 * inventory's creates with their diff and a change with its diff, and makes neither;
 * state=absent removes everything. (AnsiblePlaybookTest runs the example playbook that uses the collection.)
 * Needs {@code ansible-playbook} (Debian's ansible-core; {@code .ci/run} installs it). Its own context (a real
 * port) is closed afterwards, so its reconciler does not compete with the shared test context's.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=ansible",
        "edp.security.operator.password={noop}ansible-secret"})
class AnsibleCollectionTest {

    private static final Path EVERY_MODULE = AnsibleRunner.COLLECTIONS.resolve(
            "ansible_collections/edp/manager/tests/integration/converge.yml");
    private static final String ANSIBLE = "/usr/bin/ansible";
    private static final Pattern CHANGED = Pattern.compile("localhost\\s+: ok=\\d+\\s+changed=(\\d+)");
    /** Tasks that write in a first run of converge.yml: the eight modules. */
    private static final int MODULES = 8;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @TempDir
    Path work;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
    }

    @Test
    void everyModuleConvergesThenChangesNothingChecksWithoutWritingAndRemoves() throws Exception {
        long run = System.nanoTime();
        String host = "esx-collection-" + run;
        String prefix = "10.%d.%d.0/24".formatted(run >> 8 & 0xff, run & 0xff);

        String dryRun = converge(host, prefix, "--check", "--diff");
        assertThat(changed(dryRun)).as("check mode on a fresh inventory: %s", dryRun).isEqualTo(MODULES);
        assertThat(dryRun).as("the diff of the manager's dry run").contains("+    \"name\": \"" + host + "\"",
                "+    \"action\": \"DROP\"");
        assertThat(items("/hosts?name=" + host)).as("check mode created nothing").isEmpty();
        assertThat(items("/edp-profiles?name=" + host + "-gold")).isEmpty();
        assertThat(items("/firewall/rules?name=" + host + "-no-telnet")).isEmpty();
        assertThat(items("/routing/routes?prefix=" + prefix + "&output=vmnic0")).isEmpty();

        int first = changed(converge(host, prefix));
        int second = changed(converge(host, prefix));
        System.out.printf("converge.yml: first run changed=%d, second run changed=%d%n", first, second);
        assertThat(first).isEqualTo(MODULES);
        assertThat(second).isZero();
        JsonNode vm = vm(host);
        assertThat(vm.get("vcpus").asInt()).isEqualTo(2);
        String hostId = items("/hosts?name=" + host).getFirst().get("id").asString();
        assertThat(items("/hosts/" + hostId + "/pnics?name=vmnic0").getFirst().get("mtu").asInt()).isEqualTo(9000);

        AnsibleRunner.Run refused = module("edp.manager.vm", "host=" + host + " name=web numa_node=9");
        assertThat(refused.exit()).as(refused.log()).isNotZero();
        assertThat(refused.log()).as("the problem detail").contains("PUT /hosts/", "answered 400",
                "numaNode: NUMA node 9 does not exist");

        String check = converge(host, prefix, "-e", "edp_vcpus=4", "-e", "edp_vlan=7", "--check", "--diff");
        assertThat(changed(check)).as(check).isEqualTo(2);
        assertThat(check).contains("-    \"vcpus\": 2").contains("+    \"vcpus\": 4");
        assertThat(vm(host).get("vcpus").asInt()).as("check mode wrote nothing").isEqualTo(2);
        assertThat(vm(host).get("version")).isEqualTo(vm.get("version"));
        assertThat(vnicVlan(host, vm.get("id").asString())).isZero();

        String reset = "host=" + host + " state=absent";
        assertThat(module("edp.manager.host_edp", reset).log()).contains("localhost | CHANGED");
        assertThat(module("edp.manager.host_edp", reset).log()).as("the defaults already")
                .contains("localhost | SUCCESS");

        int absent = changed(converge(host, prefix, "-e", "edp_state=absent"));
        assertThat(absent).as("all but the EDP configuration, reset already").isEqualTo(MODULES - 1);
        assertThat(items("/hosts?name=" + host)).isEmpty();
        assertThat(items("/edp-profiles?name=" + host + "-gold")).isEmpty();
        assertThat(items("/firewall/rules?name=" + host + "-no-telnet")).isEmpty();
        assertThat(items("/routing/routes?prefix=" + prefix + "&output=vmnic0")).isEmpty();
        assertThat(changed(converge(host, prefix, "-e", "edp_state=absent"))).isZero();
    }

    /** converge.yml for that host and route prefix (unique per run: routes are global), with more arguments. */
    private String converge(String host, String prefix, String... more) throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("-e", "edp_host=" + host, "-e", "edp_prefix=" + prefix));
        arguments.addAll(List.of(more));
        arguments.addAll(List.of("-e", "edp_url=http://127.0.0.1:" + port, "-e", "edp_user=ansible",
                "-e", "edp_password=ansible-secret"));
        return AnsibleRunner.playbook(work, EVERY_MODULE, arguments);
    }

    private static int changed(String log) {
        Matcher recap = CHANGED.matcher(log);
        assertThat(recap.find()).as("the play recap in:%n%s", log).isTrue();
        return Integer.parseInt(recap.group(1));
    }

    private JsonNode vm(String host) throws IOException, InterruptedException {
        String hostId = items("/hosts?name=" + host).getFirst().get("id").asString();
        return items("/hosts/" + hostId + "/vms?name=web").getFirst();
    }

    private int vnicVlan(String host, String vmId) throws IOException, InterruptedException {
        String hostId = items("/hosts?name=" + host).getFirst().get("id").asString();
        return items("/hosts/" + hostId + "/vms/" + vmId + "/vnics?mac=00:50:56:aa:bb:21").getFirst().get("vlan")
                .asInt();
    }

    private List<JsonNode> items(String path) throws IOException, InterruptedException {
        var response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1" + path))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        "ansible:ansible-secret".getBytes(StandardCharsets.UTF_8)))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        List<JsonNode> items = new ArrayList<>();
        json.readTree(response.body()).get("items").forEach(items::add);
        return items;
    }

    /** One module, ad hoc: the connection from EDP_URL, EDP_USER and EDP_PASSWORD. */
    private AnsibleRunner.Run module(String module, String arguments) throws IOException, InterruptedException {
        return AnsibleRunner.run(work, List.of(ANSIBLE, "localhost", "-i", "localhost,", "-c", "local",
                "-m", module, "-a", arguments), Map.of("EDP_URL", "http://127.0.0.1:" + port, "EDP_USER", "ansible",
                "EDP_PASSWORD", "ansible-secret"));
    }
}
