package io.edp.cli;

import io.edp.engine.Engine;
import io.edp.engine.EngineStats;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.NicSetupException;
import io.edp.engine.time.SystemClock;
import io.edp.engine.tlb.TlbDecision;
import java.io.PrintStream;
import java.time.Instant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code edp engine --config FILE}: runs the engine alone on this host, forwarding between the interfaces of its
 * configuration file, printing a statistics line every interval, until SIGTERM or SIGINT. A bad file, a missing
 * interface or a missing permission prints one line and returns a non-zero status, never a stack trace.
 */
public final class EngineCommand {

    public static final int EXIT_OK = 0;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_CONFIG = 3;
    public static final int EXIT_NIC = 4;
    private static final String USAGE = "usage: engine --config FILE";

    private final PrintStream out;
    private final PrintStream err;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);

    EngineCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs until the JVM is asked to stop; returns the exit status. */
    public static int run(String[] args) {
        return new EngineCommand(System.out, System.err).execute(args);
    }

    int execute(String[] args) {
        if (args.length != 2 || !args[0].equals("--config")) {
            err.println(USAGE);
            return EXIT_USAGE;
        }
        Path file = Path.of(args[1]);
        if (!Files.isReadable(file)) {
            err.println("engine: config " + file + ": cannot read the file");
            return EXIT_CONFIG;
        }
        EngineConfigFile config;
        try {
            config = EngineConfigFile.read(file);
        } catch (IllegalArgumentException e) {
            err.println("engine: config " + file + ": " + e.getMessage());
            return EXIT_CONFIG;
        }
        Engine engine;
        try {
            engine = Engine.start(config.engine(), NicDrivers.standard(), SystemClock.INSTANCE);
        } catch (NicSetupException e) {
            err.println("engine: " + e.getMessage());
            return EXIT_NIC;
        } catch (IllegalArgumentException e) {
            err.println("engine: config " + file + ": " + e.getMessage());
            return EXIT_CONFIG;
        }
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(this::stopAndWait));
        out.printf("engine: %s, %d worker(s), %d port(s); stop with SIGTERM or Ctrl-C%n", config.engine().mode(),
                config.engine().workerCount(), config.engine().ports().size());
        try (engine) {
            report(engine, config.statsInterval().toNanos());
        } finally {
            stopped.countDown();
        }
        return EXIT_OK;
    }

    /**
     * Prints a statistics line every interval, and each new decision of the engine's TLB, until {@link #stop} opens.
     */
    private void report(Engine engine, long intervalNanos) {
        EngineStats previous = engine.stats();
        Instant lastShown = Instant.MIN;
        boolean stopping = false;
        while (!stopping) {
            try {
                stopping = stop.await(intervalNanos, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopping = true;
            }
            EngineStats now = engine.stats();
            out.println((stopping ? "stopped: " : "") + StatsLine.between(previous, now));
            previous = now;
            for (TlbDecision decision : now.tlb().recentDecisions()) {
                if (decision.at().isAfter(lastShown)) {
                    out.println(StatsLine.of(decision));
                    lastShown = decision.at();
                }
            }
        }
    }

    /** The shutdown hook: ask the reporting loop to stop and wait for the engine to close. */
    private void stopAndWait() {
        stop.countDown();
        try {
            stopped.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
