package io.edp.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The manager serves HTTPS from PEM files through an SSL bundle, as README "TLS" configures it: a certificate this
 * test generates with openssl, trusted by the client as its CA (what {@code curl --cacert} does). Its own context
 * (a real port) is closed afterwards.
 */
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=tls-operator",
        "edp.security.operator.password={noop}tls-secret",
        "server.ssl.bundle=edp"})
class TlsTest {

    private static final Path CERTIFICATES = temporaryDirectory();
    private static final Path CERTIFICATE = CERTIFICATES.resolve("edp.crt");
    private static final Path PRIVATE_KEY = CERTIFICATES.resolve("edp.key");

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void tls(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
        generateCertificate();
        registry.add("spring.ssl.bundle.pem.edp.keystore.certificate", () -> "file:" + CERTIFICATE);
        registry.add("spring.ssl.bundle.pem.edp.keystore.private-key", () -> "file:" + PRIVATE_KEY);
    }

    @Test
    void aClientThatTrustsTheCertificateTalksToTheApiOverHttps() throws Exception {
        var client = HttpClient.newBuilder().sslContext(trusting(CERTIFICATE)).connectTimeout(Duration.ofSeconds(5))
                .build();

        var response = client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/api/v1/hosts"))
                .header("Authorization", "Basic " + Base64.getEncoder()
                        .encodeToString("tls-operator:tls-secret".getBytes(StandardCharsets.UTF_8)))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"items\"");
        assertThat(response.sslSession()).hasValueSatisfying(session ->
                assertThat(session.getProtocol()).startsWith("TLSv1."));
    }

    @Test
    void aClientThatDoesNotTrustItIsRefusedTheHandshake() {
        var client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        assertThatThrownBy(() -> client.send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + port + "/actuator/health/liveness")).build(),
                HttpResponse.BodyHandlers.ofString())).isInstanceOf(SSLHandshakeException.class);
    }

    @Test
    void plainHttpOnTheTlsPortGetsNoAnswerFromTheApi() throws Exception {
        var client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        var response = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/actuator/health/liveness")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400); // Tomcat: "This combination of host and port requires TLS."
    }

    @Test
    void theAnsiblePlaybookVerifiesTheCertificateAgainstEdpCaPath() throws Exception {
        var log = AnsiblePlaybookTest.run(CERTIFICATES, "edp_url=https://localhost:" + port,
                "edp_ca_path=" + CERTIFICATE, "edp_user=tls-operator", "edp_password=tls-secret",
                "edp_host=esx-tls-" + port);

        assertThat(log).contains("runs EDP_STANDARD at generation").contains("failed=0");
    }

    @Test
    void withTlsNoPlainHttpWarningIsLogged(CapturedOutput output) {
        assertThat(output.getAll()).contains("Tomcat started on port").doesNotContain("over plain HTTP");
    }

    private static SSLContext trusting(Path certificate) throws Exception {
        var trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (InputStream in = Files.newInputStream(certificate)) {
            trusted.setCertificateEntry("edp", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        var trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        var context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    /** A self-signed certificate for localhost and 127.0.0.1, as README "TLS" makes one. */
    private static void generateCertificate() {
        try {
            var openssl = new ProcessBuilder(List.of("openssl", "req", "-x509", "-newkey", "ec",
                    "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", PRIVATE_KEY.toString(), "-out", CERTIFICATE.toString()))
                    .redirectErrorStream(true).redirectOutput(CERTIFICATES.resolve("openssl.log").toFile()).start();
            assertThat(openssl.waitFor(30, TimeUnit.SECONDS)).as("openssl finished").isTrue();
            assertThat(openssl.exitValue()).as("openssl's exit status: %s",
                    Files.readString(CERTIFICATES.resolve("openssl.log"))).isZero();
        } catch (IOException e) {
            throw new UncheckedIOException("openssl is missing: apt-get install openssl", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("edp-tls");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
