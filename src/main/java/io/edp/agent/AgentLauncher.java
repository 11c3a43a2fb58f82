package io.edp.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.edp.manager.database.DataDirectoryProperties;
import io.edp.manager.host.pnic.NicConfinement;
import io.edp.manager.engines.EngineProperties;

/**
 * Many simulated hosts in one JVM, for fleet tests and {@code bench fleet}: one {@link Agent} per line of a file
 * ({@code host<TAB>token<TAB>url[,url]}), each on a virtual thread of its own (its HTTP calls park, they do not
 * hold a carrier), with loopback NICs only. Each agent's lines are prefixed with its host's name. Runs until the
 * JVM is told to stop (SIGTERM), then stops every agent and closes its engine.
 */
public final class AgentLauncher {

    /** What one simulated host's agent needs. */
    record Spec(String host, String token, List<URI> managers) {
    }

    private AgentLauncher() {
    }

    /**
     * Starts an agent for every line of {@code specs}, prints {@code agent launcher: N agents running} and blocks
     * until SIGTERM; non-zero with one line on {@code err} when the file cannot be read.
     */
    public static int run(Path specs, Duration statsInterval, PrintStream out, PrintStream err) {
        List<Spec> agents;
        try {
            agents = Files.readAllLines(specs).stream().filter(line -> !line.isBlank()).map(AgentLauncher::spec)
                    .toList();
        } catch (IOException | IllegalArgumentException e) {
            err.println("agent launcher: " + specs + ": " + e.getMessage());
            return AgentCommand.EXIT_USAGE;
        }
        // loopback only: simulated hosts never open the machine's interfaces or files (a capture's, if one is started)
        var drivers = new NicConfinement(new EngineProperties(true, 1024, 256, false, null, Path.of("pcap"), List.of()),
                new DataDirectoryProperties(null)).drivers();
        List<Agent> running = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        var http = ManagerClient.http(); // one for all: see ManagerClient
        for (Spec spec : agents) {
            var agent = new Agent(new ManagerClient(http, spec.managers(), spec.host(), spec.token(),
                    AgentCommand.version()), drivers, Path.of("capture", spec.host()), statsInterval,
                    prefixed(out, spec.host()));
            running.add(agent);
            threads.add(Thread.ofVirtual().name("edp-agent-" + spec.host()).start(agent::run));
        }
        out.println("agent launcher: " + agents.size() + " agents running");
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
            running.forEach(Agent::stop);
            threads.forEach(Thread::interrupt); // out of their long polls and backoffs
        }));
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return AgentCommand.EXIT_OK;
            }
        }
        return AgentCommand.EXIT_OK;
    }

    private static Spec spec(String line) {
        var fields = line.split("\t");
        if (fields.length != 3) {
            throw new IllegalArgumentException("expected host<TAB>token<TAB>url[,url], got " + fields.length
                    + " fields");
        }
        return new Spec(fields[0], fields[1], Arrays.stream(fields[2].split(",")).map(URI::create).toList());
    }

    /** {@code shared}, each line starting with the host's name. */
    static PrintStream prefixed(PrintStream shared, String host) {
        return new PrintStream(shared, true) {
            @Override
            public void println(String line) {
                // one println on the shared stream, which holds its lock for the line and its newline alike
                shared.println(host + " " + line);
            }
        };
    }
}
