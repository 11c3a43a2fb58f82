package io.edp.bench;

import io.edp.engine.EngineConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Open vSwitch's userspace datapath between the two interfaces: an ovsdb-server and an ovs-vswitchd of its own
 * (database, sockets, pid and log files in a temporary directory; {@code --disable-system}, so it never opens
 * the kernel datapath or touches another Open vSwitch on the host), one bridge with {@code datapath_type=netdev}
 * and the interfaces as its ports 1 and 2, {@code fail-mode=secure} and the flows of a {@link Pipeline}.
 * ovs-vswitchd polls such ports from its main thread; the whole daemon runs on {@code cpu} when one is given.
 * It cannot tell what its sockets dropped, so {@link #dropped()} is empty.
 */
final class OvsForwarder implements AfPacketBench.Forwarder {

    /** What Open vSwitch needs besides the tools every {@code bench afpacket} needs. */
    static final String[] TOOLS = {"ovsdb-tool", "ovsdb-server", "ovs-vswitchd", "ovs-vsctl", "ovs-ofctl",
        "ovs-appctl", "taskset"};
    /** The database schema, where Open vSwitch's own scripts look for it. */
    private static final Path SCHEMA = Path.of(System.getenv().getOrDefault("OVS_PKGDATADIR", "/usr/share/openvswitch"),
            "vswitch.ovsschema");
    private static final int INGRESS_PORT = 1;
    private static final int EGRESS_PORT = 2;

    private final Path directory;
    private final Map<String, String> environment;
    private final String bridge;
    private long pid = -1;
    private long serverPid = -1;

    /** Starts Open vSwitch forwarding from {@code ingress} to {@code egress}; {@code cpu} -1 leaves it unpinned. */
    OvsForwarder(String ingress, String egress, Pipeline pipeline, int cpu) {
        try {
            directory = Files.createTempDirectory("edp-ovs-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // every default path of the tools (the bridge's OpenFlow socket included) points into the directory
        environment = Map.of("OVS_RUNDIR", directory.toString(), "OVS_DBDIR", directory.toString(),
                "OVS_LOGDIR", directory.toString(), "OVS_SYSCONFDIR", directory.toString());
        bridge = "ovs" + ingress;
        try {
            Path database = directory.resolve("conf.db");
            ovs("ovsdb-tool", "create", database.toString(), SCHEMA.toString());
            ovs(daemon(List.of("ovsdb-server", database.toString(), "--remote=punix:" + socket()), "ovsdb-server"));
            serverPid = pidOf("ovsdb-server");
            ovs("ovs-vsctl", "--db=unix:" + socket(), "--no-wait", "init");
            List<String> vswitchd =
                    new ArrayList<>(cpu < 0 ? List.of() : List.of("taskset", "-c", Integer.toString(cpu)));
            vswitchd.addAll(List.of("ovs-vswitchd", "unix:" + socket(), "--disable-system", "--disable-system-route"));
            ovs(daemon(vswitchd, "ovs-vswitchd"));
            pid = pidOf("ovs-vswitchd");
            ovs("ovs-vsctl", "--db=unix:" + socket(), "--timeout=30", "add-br", bridge,
                    "--", "set", "bridge", bridge, "datapath_type=netdev", "fail-mode=secure",
                    "--", "add-port", bridge, ingress,
                    "--", "set", "interface", ingress, "ofport_request=" + INGRESS_PORT,
                    "--", "add-port", bridge, egress,
                    "--", "set", "interface", egress, "ofport_request=" + EGRESS_PORT);
            Path flowTable = Files.writeString(directory.resolve("flows"), flows(pipeline));
            ovs("ovs-ofctl", "replace-flows", bridge, flowTable.toString());
        } catch (IOException | RuntimeException e) {
            close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /**
     * The OpenFlow table: {@link Pipeline#PLAIN} outputs every frame of port 1 to port 2; {@link Pipeline#ENGINE_WORK}
     * is what {@link EngineForwarder}'s configuration makes the engine do with the benchmark's frames — its DROP rule,
     * then, for UDP 10.0.0.0/24 → 10.0.1.0/24 addressed to the router MAC (its ALLOW rule and its route), a connection
     * committed to the userspace connection tracker, the MACs rewritten for the next hop, the TTL decremented and the
     * frame sent out of port 2. What neither matches (the benchmark sends none) is dropped.
     */
    static String flows(Pipeline pipeline) {
        return switch (pipeline) {
            case PLAIN -> "in_port=" + INGRESS_PORT + ",actions=output:" + EGRESS_PORT + "\n";
            case ENGINE_WORK -> "priority=300,ip,in_port=" + INGRESS_PORT + ",nw_src=" + EngineForwarder.DROPPED_SOURCES
                    + ",actions=drop\n"
                    + "priority=200,udp,in_port=" + INGRESS_PORT + ",dl_dst=" + EngineConfig.DEFAULT_ROUTER_MAC
                    + ",nw_src=" + EngineForwarder.ALLOWED_SOURCES + ",nw_dst=" + EngineForwarder.ROUTED_PREFIX
                    + ",actions=ct(commit),mod_dl_src:" + EngineConfig.DEFAULT_ROUTER_MAC
                    + ",mod_dl_dst:" + EngineForwarder.NEXT_HOP_MAC + ",dec_ttl,output:" + EGRESS_PORT + "\n"
                    + "priority=0,actions=drop\n";
        };
    }

    /** The connections in Open vSwitch's userspace connection tracker. */
    int connections() {
        return (int) ovs("ovs-appctl", "-t", control("ovs-vswitchd").toString(), "dpctl/dump-conntrack")
                .lines().count();
    }

    @Override
    public OptionalLong dropped() {
        return OptionalLong.empty();
    }

    /** ovs-vswitchd, which does all the forwarding (its main thread polls the ports). */
    @Override
    public long pid() {
        return pid;
    }

    /**
     * Stops both daemons (ovs-vswitchd removing its bridge, and gone, with its sockets, before this returns, so
     * that the next forwarder on the interfaces is alone there) and deletes the directory.
     */
    @Override
    public void close() {
        stop("ovs-vswitchd", "--cleanup");
        awaitExit(pid, "ovs-vswitchd");
        stop("ovsdb-server");
        awaitExit(serverPid, "ovsdb-server"); // it deletes its pid file as it exits: a walk meeting that fails
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException ignored) {
            // a leftover temporary directory is harmless
        }
    }

    private long pidOf(String daemon) throws IOException {
        return Long.parseLong(Files.readString(directory.resolve(daemon + ".pid")).trim());
    }

    private static void awaitExit(long pid, String daemon) {
        (pid > 0 ? ProcessHandle.of(pid) : Optional.<ProcessHandle>empty()).ifPresent(process -> {
            try {
                process.onExit().get(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException(daemon + " (pid " + pid + ") did not exit", e);
            }
        });
    }

    private void stop(String name, String... options) {
        if (Files.exists(control(name))) {
            List<String> command = new ArrayList<>(List.of("ovs-appctl", "-t", control(name).toString(), "exit"));
            command.addAll(List.of(options));
            try {
                ovs(command.toArray(String[]::new));
            } catch (IllegalStateException e) {
                // the daemon closes the connection as it exits: nothing more to stop
            }
        }
    }

    /** {@code command} as a daemon of this instance: detached once ready, its pid, control socket and log here. */
    private String[] daemon(List<String> command, String name) {
        List<String> all = new ArrayList<>(command);
        all.addAll(List.of("--pidfile=" + directory.resolve(name + ".pid"), "--unixctl=" + control(name),
                "--log-file=" + directory.resolve(name + ".log"), "--no-chdir", "--detach"));
        return all.toArray(String[]::new);
    }

    private Path control(String name) {
        return directory.resolve(name + ".ctl");
    }

    private String socket() {
        return directory.resolve("db.sock").toString();
    }

    private String ovs(String... command) {
        return HostCommand.run(environment, command);
    }
}
