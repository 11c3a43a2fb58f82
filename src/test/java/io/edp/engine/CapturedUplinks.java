package io.edp.engine;

import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.TestFrames;
import io.edp.engine.time.SystemClock;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An engine whose ports are capture files, for tests that compare the frames it sends byte by byte: uplink 1
 * replays an input capture and, like every other capture port, writes what it transmits to
 * {@link #output(Mode, int)}.
 */
public final class CapturedUplinks {

    private final Path dir;

    public CapturedUplinks(Path dir) {
        this.dir = dir;
    }

    /** A configuration of {@code mode} with uplink 1 replaying {@code frames} and uplink 2 capturing. */
    public EngineConfig.Builder config(Mode mode, List<byte[]> frames) {
        Path input = dir.resolve(mode + "-input.pcap");
        TestFrames.writeCapture(input, frames);
        return EngineConfig.builder()
                .mode(mode)
                .port(new PortConfig(1, "uplink0", 0, 1, 1, "pcap",
                        Map.of("rxFile", input.toString(), "txFile", output(mode, 1).toString())))
                .port(capturePort(mode, 2, "uplink1"));
    }

    /** A port that only captures. */
    public PortConfig capturePort(Mode mode, int id, String name) {
        return new PortConfig(id, name, 0, 1, 1, "pcap", Map.of("txFile", output(mode, id).toString()));
    }

    public Path output(Mode mode, int port) {
        return dir.resolve(mode + "-port" + port + ".pcap");
    }

    /** What port {@code port} sent. */
    public List<byte[]> sent(Mode mode, int port) {
        return TestFrames.readCapture(output(mode, port));
    }

    /** Runs the engine until it has handled all {@code frames} of the input, then closes it (flushing captures). */
    public static EngineStats replay(EngineConfig config, int frames) {
        try (Engine engine = Engine.start(config, NicDrivers.standard(), SystemClock.INSTANCE)) {
            return Traffic.drained(engine, frames);
        }
    }
}
