package io.edp.engine.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.bench.HostCommand;
import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.time.SystemClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture replayed through the engine (EDP_STANDARD, routing, a DROP rule) into a capture: per flow, tshark
 * counts in the output what it counts in the input, except the flow the rule drops.
 */
class EnginePcapReplayTest {

    private static final int BLOCKED_SOURCE_PORT = 1007;
    private static final long DEADLINE_NANOS = 15_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void perFlowCountsOfTheOutputAreThoseOfTheInputMinusTheDroppedFlow() {
        Path input = dir.resolve("input.pcap");
        Path output = dir.resolve("output.pcap");
        int frames = writeInput(input);
        EngineConfig config = RoutedWithOneFlowBlocked.config(
                new PortConfig(1, "replay", 0, 1, 1, "pcap", Map.of("rxFile", input.toString())),
                new PortConfig(2, "capture", 0, 1, 1, "pcap", Map.of("txFile", output.toString())),
                BLOCKED_SOURCE_PORT);

        try (Engine engine = Engine.start(config, NicDrivers.standard(), SystemClock.INSTANCE)) {
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            while (engine.stats().rxPackets() < frames && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(engine.stats().rxPackets()).isEqualTo(frames);
        } // closing the engine closes the pcap port, which flushes the output

        Map<String, Long> in = tsharkFlowCounts(input);
        Map<String, Long> out = tsharkFlowCounts(output);
        Map<String, Long> expected = new TreeMap<>(in);
        expected.remove(flow(BLOCKED_SOURCE_PORT));
        assertThat(in).hasSize(16).containsKey(flow(BLOCKED_SOURCE_PORT));
        assertThat(out).isEqualTo(expected);
    }

    /** 16 UDP flows (source ports 1000..1015), flow i with i + 1 frames, interleaved; returns the frame count. */
    private static int writeInput(Path input) {
        List<byte[]> frames = new ArrayList<>();
        for (int round = 0; round < 16; round++) {
            for (int flow = round; flow < 16; flow++) {
                frames.add(TestFrames.udp(1000 + flow, 60 + 8 * flow));
            }
        }
        TestFrames.writeCapture(input, frames);
        return frames.size();
    }

    /** Frames per "source port → destination" as tshark reads the file. */
    private static Map<String, Long> tsharkFlowCounts(Path file) {
        Map<String, Long> counts = new TreeMap<>();
        String fields = HostCommand.run("tshark", "-r", file.toString(), "-T", "fields", "-e", "udp.srcport",
                "-e", "ip.dst");
        fields.lines().filter(line -> !line.isBlank()).forEach(line -> counts.merge(line, 1L, Long::sum));
        return counts;
    }

    private static String flow(int sourcePort) {
        return sourcePort + "\t10.0.1.1";
    }
}
