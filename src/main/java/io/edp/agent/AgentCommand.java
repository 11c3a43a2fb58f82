package io.edp.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.edp.manager.database.DataDirectoryProperties;
import io.edp.manager.host.pnic.NicConfinement;
import io.edp.manager.engines.EngineProperties;
import org.springframework.boot.convert.DurationStyle;

/**
 * {@code edp agent --manager URL[,URL] --host NAME --token-file FILE [--pcap-dir DIR] [--capture-dir DIR]
 * [--interfaces IF,IF] [--stats-interval 10s]}: runs the host's engine as the manager describes it ({@link Agent})
 * until SIGTERM or SIGINT; several manager URLs are replicas, the next one used when a call cannot reach the current
 * one. The drivers are confined by the agent's own options, as the manager confines its embedded engines: pcap files
 * only inside {@code --pcap-dir}, af_packet only on {@code --interfaces}, live captures' files only inside
 * {@code --capture-dir} (default {@code capture}). Bad options print one line and return a non-zero status.
 */
public final class AgentCommand {

    public static final int EXIT_OK = 0;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_TOKEN = 3;
    static final String USAGE = "usage: agent --manager URL[,URL] --host NAME --token-file FILE [--pcap-dir DIR] "
            + "[--capture-dir DIR] [--interfaces IF,IF] [--stats-interval 10s]";
    private static final Set<String> OPTIONS = Set.of("--manager", "--host", "--token-file", "--pcap-dir",
            "--capture-dir", "--interfaces", "--stats-interval");

    private AgentCommand() {
    }

    public static int run(String[] args) {
        return execute(args, System.out, System.err);
    }

    static int execute(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!OPTIONS.contains(args[i]) || i + 1 >= args.length) {
                err.println(USAGE);
                return EXIT_USAGE;
            }
            options.put(args[i], args[i + 1]);
        }
        if (!options.keySet().containsAll(List.of("--manager", "--host", "--token-file"))) {
            err.println(USAGE);
            return EXIT_USAGE;
        }
        String token;
        try {
            token = Files.readString(Path.of(options.get("--token-file"))).strip();
        } catch (IOException e) {
            err.println("agent: token file " + options.get("--token-file") + ": cannot read it (" + e + ")");
            return EXIT_TOKEN;
        }
        Duration statsInterval;
        List<URI> managers;
        try {
            statsInterval = DurationStyle.detectAndParse(options.getOrDefault("--stats-interval", "10s"));
            managers = Arrays.stream(options.get("--manager").split(",")).map(String::strip).map(URI::create)
                    .toList();
        } catch (IllegalArgumentException e) {
            err.println("agent: " + e.getMessage());
            return EXIT_USAGE;
        }
        var interfaces = options.containsKey("--interfaces")
                ? Arrays.stream(options.get("--interfaces").split(",")).map(String::strip).toList() : List.<String>of();
        var pcapDir = Path.of(options.getOrDefault("--pcap-dir", "pcap"));
        var confinement = new NicConfinement(new EngineProperties(true, 8192, 65536, true, null, pcapDir, interfaces),
                new DataDirectoryProperties(null));
        var captureDir = Path.of(options.getOrDefault("--capture-dir", "capture")).toAbsolutePath().normalize();
        var agent = new Agent(new ManagerClient(managers, options.get("--host"), token, version()),
                confinement.drivers(), captureDir, statsInterval, out);
        out.printf("agent: host %s, manager %s, pcap files in %s, captures in %s, af_packet interfaces %s; stop "
                + "with SIGTERM%n", options.get("--host"), managers.stream().map(URI::toString)
                .collect(Collectors.joining(",")), confinement.pcapDir(), captureDir, interfaces);
        var main = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
            agent.stop();
            main.interrupt(); // out of a long poll or a backoff
            try {
                main.join(10_000); // until the engine has closed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        agent.run();
        return EXIT_OK;
    }

    static String version() {
        var version = AgentCommand.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
