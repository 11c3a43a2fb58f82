package io.edp.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Swagger UI in a real browser: headless Chromium loads the page from the running manager, runs its JavaScript
 * against the served contract and must show the operations and the Authorize button of the HTTP Basic scheme.
 * Needs {@code chromium} (Debian's package; {@code .ci/run} installs it). Its own context (a real port) is closed
 * afterwards, so its reconciler does not compete with the shared test context's for hosts.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SwaggerUiBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @LocalServerPort
    int port;

    @TempDir
    Path profile;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
    }

    @Test
    void swaggerUiRendersTheApiAndOffersAuthorize() throws Exception {
        assertThat(Files.isExecutable(CHROMIUM)).as("%s is missing: apt-get install chromium", CHROMIUM).isTrue();

        String dom = renderedDom("http://127.0.0.1:" + port + "/swagger-ui/index.html");

        assertThat(dom).as("the Authorize button of the Basic scheme").contains("class=\"btn authorize");
        assertThat(dom).as("operation groups rendered from /v3/api-docs").contains("opblock-tag-section");
        assertThat(dom).contains("/api/v1/hosts");
    }

    /** The page's DOM after its scripts ran, as headless Chromium dumps it. */
    private String renderedDom(String url) throws IOException, InterruptedException {
        Path dom = profile.resolve("dom.html");
        // flags as for any headless run on a closed network: no background connections, no sandbox as root
        var chromium = new ProcessBuilder(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile.resolve("chromium"), "--virtual-time-budget=15000",
                "--dump-dom", url))
                .redirectOutput(dom.toFile())
                .redirectError(profile.resolve("chromium.log").toFile())
                .start();
        boolean exited = chromium.waitFor(90, TimeUnit.SECONDS);
        if (!exited) {
            chromium.destroyForcibly();
        }
        assertThat(exited).as("chromium finished within 90 s").isTrue();
        assertThat(chromium.exitValue()).as("chromium's exit status; its log: %s",
                Files.readString(profile.resolve("chromium.log"))).isZero();
        return Files.readString(dom, StandardCharsets.UTF_8);
    }
}
