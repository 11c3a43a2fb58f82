package io.edp.engine;

import io.edp.engine.FlowFrames.Ingress;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packetlog.PacketLogConfig;
import io.edp.engine.slowpath.ConnectionFilter;
import io.edp.engine.time.ManualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Two stepped engines on one {@link ManualClock}, fed the same frames one at a time: the engine under test
 * (EDP_STANDARD at first; mode switches reach it alone) and a LEGACY reference that runs the IOChain for every
 * packet. Every other change — configuration, queue moves, cache flushes — reaches both, so the two differ in
 * their mode only. What a frame produced is read back as an {@link Outcome} per engine, with the packet-log lines
 * it wrote (each engine logs to a file of its own; the lines are compared without their timestamps).
 */
final class LockstepEngines implements AutoCloseable {

    /**
     * What one frame produced: the frames each port sent (hex, in order), the drops counted, by reason, and the
     * packet-log lines written (without their timestamps).
     */
    record Outcome(Map<Integer, List<String>> transmitted, Map<DropReason, Long> drops, List<String> logged) {

        boolean forwarded() {
            return !transmitted.isEmpty();
        }

        @Override
        public String toString() {
            String sent = transmitted.isEmpty() ? "nothing sent" : "sent " + transmitted;
            sent = drops.isEmpty() ? sent : sent + ", dropped " + drops;
            return logged.isEmpty() ? sent : sent + ", logged " + logged;
        }
    }

    private static final int CAPTURED_FRAMES = 8;

    private final ManualClock clock = new ManualClock(1_000_000_000L);
    private final Engine underTest;
    private final Engine reference;
    private final long[][] dropsSeen = new long[2][DropReason.count()];
    private final Path logDirectory;
    /** Per engine: the bytes of its packet-log file already read. */
    private final long[] logRead = new long[2];

    /** Starts both engines on {@code config} (its mode is ignored: EDP_STANDARD under test, LEGACY reference). */
    LockstepEngines(EngineConfig config) {
        try {
            logDirectory = Files.createTempDirectory("edp-lockstep-log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        underTest = start(config.toBuilder().mode(Mode.EDP_STANDARD).packetLog(logTo(0)).build());
        try {
            reference = start(config.toBuilder().mode(Mode.LEGACY).packetLog(logTo(1)).build());
        } catch (RuntimeException e) {
            underTest.close();
            throw e;
        }
    }

    private PacketLogConfig logTo(int which) {
        return PacketLogConfig.to(List.of(), logDirectory.resolve("engine" + which + ".log").toString())
                .withFileRotation(1L << 40, 1);
    }

    /** The lines engine {@code which} logged since the last call, without their timestamps. */
    private List<String> loggedSince(Engine engine, int which) {
        engine.packetLog().flush();
        Path file = logDirectory.resolve("engine" + which + ".log");
        try (FileChannel channel = FileChannel.open(file)) {
            ByteBuffer fresh = ByteBuffer.allocate((int) (channel.size() - logRead[which]));
            channel.read(fresh, logRead[which]);
            logRead[which] += fresh.position();
            List<String> lines = new ArrayList<>();
            for (String line : new String(fresh.array(), 0, fresh.position(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isEmpty()) {
                    lines.add(line.substring(line.indexOf(' ') + 1));
                }
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Engine start(EngineConfig config) {
        Engine engine = Engine.startStepped(config, NicDrivers.withLoopback(), clock);
        for (PortConfig p : config.ports()) {
            ((LoopbackNic) engine.driver(p.id())).captureTransmitted(CAPTURED_FRAMES);
        }
        return engine;
    }

    Mode modeUnderTest() {
        return underTest.config().mode();
    }

    /** Sends one frame into each engine and returns what each made of it: {@code [under test, reference]}. */
    Outcome[] send(Ingress frame) {
        return new Outcome[] {send(underTest, 0, frame), send(reference, 1, frame)};
    }

    private Outcome send(Engine engine, int which, Ingress frame) {
        LoopbackNic nic = (LoopbackNic) engine.driver(frame.port());
        if (!nic.inject(MemorySegment.ofArray(frame.frame()), 0, frame.frame().length)) {
            throw new IllegalStateException("port " + frame.port() + " has no RX buffer posted");
        }
        engine.step();
        Map<Integer, List<String>> transmitted = new TreeMap<>();
        for (PortConfig p : engine.config().ports()) {
            List<String> frames = new ArrayList<>();
            for (byte[] f : ((LoopbackNic) engine.driver(p.id())).takeTransmitted()) {
                frames.add(HexFormat.of().formatHex(f));
            }
            if (!frames.isEmpty()) {
                transmitted.put(p.id(), frames);
            }
        }
        return new Outcome(transmitted, dropsSince(engine, dropsSeen[which]), loggedSince(engine, which));
    }

    /** The drops counted since the last call, by reason; {@code seen} keeps the totals. */
    private static Map<DropReason, Long> dropsSince(Engine engine, long[] seen) {
        Map<DropReason, Long> delta = new EnumMap<>(DropReason.class);
        for (Map.Entry<DropReason, Long> e : engine.stats().drops().entrySet()) {
            int reason = e.getKey().ordinal();
            if (e.getValue() != seen[reason]) {
                delta.put(e.getKey(), e.getValue() - seen[reason]);
                seen[reason] = e.getValue();
            }
        }
        return delta;
    }

    /**
     * Moves the clock, then lets every worker run a duty cycle (its flow-cache and connection sweeps see the new
     * time); returns the packet-log lines each engine wrote meanwhile, {@code [under test, reference]}.
     */
    List<List<String>> advance(Duration by) {
        clock.advance(by);
        underTest.step();
        reference.step();
        return List.of(loggedSince(underTest, 0), loggedSince(reference, 1));
    }

    /** Applies a configuration change to both engines; each keeps its own mode. */
    void apply(UnaryOperator<EngineConfig.Builder> change) {
        underTest.apply(change.apply(underTest.config().toBuilder()).build());
        reference.apply(change.apply(reference.config().toBuilder()).build());
    }

    /** Hands RX queue {@code queue} of {@code port} to worker {@code worker} in both engines. */
    void moveQueue(int port, int queue, int worker) {
        underTest.moveQueue(port, queue, worker);
        reference.moveQueue(port, queue, worker);
    }

    /** Empties the flow caches of both engines (the reference's, when it has any, are unused). */
    void flushFlowCaches() {
        underTest.flushFlowCaches();
        reference.flushFlowCaches();
    }

    /** Clears the connections {@code filter} selects in both engines; returns how many each cleared. */
    int[] clearConnections(ConnectionFilter filter) {
        return new int[] {underTest.clearConnections(filter), reference.clearConnections(filter)};
    }

    /** The LEGACY reference. */
    Engine reference() {
        return reference;
    }

    /** The engine under test (EDP_STANDARD at first). */
    Engine underTest() {
        return underTest;
    }

    /** Switches the engine under test to {@code mode}; the reference stays LEGACY. */
    void switchMode(Mode mode) {
        underTest.apply(underTest.config().toBuilder().mode(mode).build());
    }

    @Override
    public void close() {
        try {
            underTest.close();
        } finally {
            reference.close();
            try (var files = Files.list(logDirectory)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
                Files.delete(logDirectory);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
