package io.edp.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Network namespaces and veth pairs for benchmarks and tests, named with a random run id so parallel runs do not
 * collide. The engine-facing end of a pair stays in the root namespace (where the JVM's sockets live), the
 * generator or sink end goes into a namespace of its own. IPv6 is off on every end, so no neighbour discovery
 * or MLD frame disturbs the counts. {@link #close()} removes everything it made.
 */
public final class VethLab implements AutoCloseable {

    private final String id = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100000, 0xffffff));
    private final String prefix;
    private final List<String> namespaces = new ArrayList<>();
    private final List<String> rootLinks = new ArrayList<>();
    private final Set<Path> files = new HashSet<>();

    /** A lab whose namespaces are named {@code edp-<role>-<id>}. */
    public VethLab() {
        this("edp");
    }

    /** A lab whose namespaces are named {@code <prefix>-<role>-<id>}. */
    public VethLab(String prefix) {
        this.prefix = prefix;
    }

    public String id() {
        return id;
    }

    /** Creates namespace {@code <prefix>-<role>-<id>} and returns its name. */
    public String namespace(String role) {
        String name = prefix + "-" + role + "-" + id;
        HostCommand.run("ip", "netns", "add", name);
        namespaces.add(name);
        HostCommand.run("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up");
        return name;
    }

    /**
     * A veth pair: {@code rootEnd + id} in the root namespace, {@code innerEnd} in {@code namespace}; both up,
     * without IPv6. Returns the root end's full name.
     */
    public String veth(String rootEnd, String namespace, String innerEnd) {
        String root = rootEnd + id;
        HostCommand.run("ip", "link", "add", root, "type", "veth", "peer", "name", innerEnd, "netns", namespace);
        rootLinks.add(root);
        HostCommand.run("sysctl", "-q", "-w", "net.ipv6.conf." + root + ".disable_ipv6=1");
        HostCommand.run("ip", "netns", "exec", namespace,
                "sysctl", "-q", "-w", "net.ipv6.conf." + innerEnd + ".disable_ipv6=1");
        HostCommand.run("ip", "link", "set", root, "up");
        HostCommand.run("ip", "-n", namespace, "link", "set", innerEnd, "up");
        return root;
    }

    /**
     * The path a forwarder is measured on: generator namespace ({@value #GENERATOR_DEVICE}) → veth →
     * {@code ingress} | the forwarder in the root namespace | {@code egress} → veth → sink namespace
     * ({@value #SINK_DEVICE}).
     */
    public record ForwardingPath(String generator, String ingress, String egress, String sink) {
    }

    public static final String GENERATOR_DEVICE = "gen0";
    public static final String SINK_DEVICE = "sink0";

    public ForwardingPath forwardingPath() {
        String generator = namespace("gen");
        String sink = namespace("sink");
        return new ForwardingPath(generator, veth("in", generator, GENERATOR_DEVICE),
                veth("out", sink, SINK_DEVICE), sink);
    }

    /** An interface statistic ({@code rx_packets}, {@code tx_packets}, ...); namespace null for the root one. */
    public long counter(String namespace, String device, String statistic) {
        String path = "/sys/class/net/" + device + "/statistics/" + statistic;
        try {
            String value = namespace == null ? Files.readString(Path.of(path))
                    : HostCommand.run("ip", "netns", "exec", namespace, "cat", path);
            return Long.parseLong(value.trim());
        } catch (IOException e) {
            throw new UncheckedIOException(path, e);
        }
    }

    /**
     * Sends {@code count} frames of {@code profile} from {@code device} in {@code namespace}; returns when all are
     * sent.
     */
    public void trafgen(String namespace, String device, TrafgenProfile profile, long count) {
        HostCommand.run(trafgenCommand(namespace, device, profile, "-n", Long.toString(count)));
    }

    /**
     * Starts trafgen sending {@code profile} until the returned handle is closed, at {@code rate} (e.g.
     * "300000pps") or as fast as it can (null).
     */
    public RunningTrafgen trafgenUntilStopped(String namespace, String device, TrafgenProfile profile, String rate) {
        String[] command = rate == null ? trafgenCommand(namespace, device, profile)
                : trafgenCommand(namespace, device, profile, "--rate", rate);
        return new RunningTrafgen(command, file("trafgen", ".log", ""));
    }

    /**
     * A trafgen started in a session of its own ({@code setsid}): it forks a worker per CPU and stops on SIGINT
     * only (not SIGTERM), so stopping it means SIGINT to its whole process group.
     */
    public static final class RunningTrafgen implements AutoCloseable {

        private final Process process;
        private final Path log;

        private RunningTrafgen(String[] command, Path log) {
            this.log = log;
            String[] inSession = new String[command.length + 1];
            inSession[0] = "setsid";
            System.arraycopy(command, 0, inSession, 1, command.length);
            try {
                process = new ProcessBuilder(inSession).redirectErrorStream(true)
                        .redirectOutput(log.toFile()).start();
            } catch (IOException e) {
                throw new UncheckedIOException("trafgen could not start", e);
            }
        }

        /** Fails with trafgen's last output when it has exited: a window without a generator measures nothing. */
        public void requireRunning() {
            if (!process.isAlive()) {
                String output;
                try {
                    output = Files.readString(log).strip();
                } catch (IOException e) {
                    output = "(no output: " + e.getMessage() + ")";
                }
                throw new IllegalStateException("trafgen exited with " + process.exitValue() + ": "
                        + output.substring(Math.max(0, output.length() - 500)));
            }
        }

        @Override
        public void close() {
            String group = "-" + process.pid();
            try {
                new ProcessBuilder("kill", "-INT", "--", group).start().waitFor();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    new ProcessBuilder("kill", "-KILL", "--", group).start().waitFor();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not stop trafgen " + process.pid(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private String[] trafgenCommand(String namespace, String device, TrafgenProfile profile, String... extra) {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace, "trafgen", "--dev", device,
                "--conf", file("trafgen", ".cfg", profile.config()).toString(), "--cpus", "1", "--no-sock-mem"));
        command.addAll(List.of(extra));
        return command.toArray(String[]::new);
    }

    /** Writes a temporary file that {@link #close()} deletes. */
    public Path file(String prefix, String suffix, String content) {
        try {
            Path path = Files.createTempFile(prefix + "-" + id + "-", suffix);
            files.add(path);
            Files.writeString(path, content);
            return path;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        // deleting a namespace deletes its veth ends and with them their root-namespace peers
        for (String namespace : namespaces) {
            runQuietly("ip", "netns", "del", namespace);
        }
        for (String link : rootLinks) {
            if (Files.exists(Path.of("/sys/class/net", link))) {
                runQuietly("ip", "link", "del", link);
            }
        }
        for (Path path : files) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // a leftover temp file is harmless
            }
        }
    }

    private static void runQuietly(String... command) {
        try {
            HostCommand.run(command);
        } catch (IllegalStateException ignored) {
            // cleanup goes on with the next item
        }
    }
}
