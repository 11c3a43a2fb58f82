package io.edp.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The committed playbook ansible/edp-host.yml, run by the real ansible-playbook against the running manager: with
 * the edp.manager collection it puts a host under EDP_STANDARD and waits for the realization ({@code wait: true});
 * a second run changes nothing. Needs {@code ansible-playbook} (Debian's ansible-core; {@code .ci/run} installs
 * it). Its own context (a real port) is closed afterwards, so its reconciler does not compete with the shared test
 * context's.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=ansible",
        "edp.security.operator.password={noop}ansible-secret"})
class AnsiblePlaybookTest {

    private static final Path PLAYBOOK = Path.of("ansible", "edp-host.yml");
    private static final Path ANSIBLE_PLAYBOOK = Path.of(AnsibleRunner.ANSIBLE_PLAYBOOK);

    @LocalServerPort
    int port;

    @TempDir
    Path work;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
    }

    @Test
    void playbookPutsAHostUnderEdpAndASecondRunChangesNothing() throws Exception {
        assertThat(Files.isExecutable(ANSIBLE_PLAYBOOK)).as("%s is missing: apt-get install ansible-core",
                ANSIBLE_PLAYBOOK).isTrue();
        String host = "esx-ansible-" + System.nanoTime();

        String first = playbook(host);
        String second = playbook(host);

        assertThat(first).contains(host + " runs EDP_STANDARD at generation").contains("changed=5");
        assertThat(second).contains(host + " runs EDP_STANDARD at generation").contains("changed=0")
                .contains("failed=0");
    }

    private String playbook(String host) throws IOException, InterruptedException {
        return run(work, "edp_url=http://127.0.0.1:" + port, "edp_user=ansible", "edp_password=ansible-secret",
                "edp_host=" + host);
    }

    /** Runs the playbook with these extra variables ({@code name=value}); fails with its output unless it succeeds. */
    static String run(Path work, String... variables) throws IOException, InterruptedException {
        var arguments = new ArrayList<String>();
        for (var variable : variables) {
            arguments.addAll(List.of("-e", variable));
        }
        return AnsibleRunner.playbook(work, PLAYBOOK, arguments);
    }
}
