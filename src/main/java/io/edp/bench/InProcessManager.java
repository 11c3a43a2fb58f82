package io.edp.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.edp.EdpApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The manager started in the bench's own process, on a free port: its embedded PostgreSQL under target/bench
 * (unless SPRING_DATASOURCE_URL names a database) and an operator account {@code bench} with a random password,
 * which the manager hashes as it would an operator's own (so requests pay the cached check, not BCrypt).
 */
final class InProcessManager implements AutoCloseable {

    private final ConfigurableApplicationContext context;
    private final String credentials;

    private InProcessManager(ConfigurableApplicationContext context, String credentials) {
        this.context = context;
        this.credentials = credentials;
    }

    /** {@code settings}: more {@code --name=value} settings for the manager. */
    static InProcessManager start(String... settings) {
        var password = UUID.randomUUID().toString();
        // as command-line arguments, so that they win over application.yaml's environment mappings
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--edp.data-dir=target/bench",
                "--edp.security.operator.user=bench", "--edp.security.operator.password=" + password,
                "--logging.level.root=WARN", "--spring.main.banner-mode=off"));
        args.addAll(List.of(settings));
        var context = new SpringApplicationBuilder(EdpApplication.class).run(args.toArray(String[]::new));
        return new InProcessManager(context, "bench:" + password);
    }

    String url() {
        return "http://127.0.0.1:" + ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    /** {@code user:password} of the operator. */
    String credentials() {
        return credentials;
    }

    ConfigurableApplicationContext context() {
        return context;
    }

    @Override
    public void close() {
        context.close();
    }
}
