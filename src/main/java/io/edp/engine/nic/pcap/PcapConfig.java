package io.edp.engine.nic.pcap;

import java.nio.file.Path;

/**
 * A pcap port: frames replayed from {@code rxFile} arrive on its RX queue, frames transmitted on its TX queue
 * go to {@code txFile}. Either file may be null (a port that only replays, or only captures).
 *
 * @param replay            how fast the RX file is replayed
 * @param nanosecondOutput  write nanosecond timestamps (magic 0xa1b23c4d) instead of microseconds
 */
public record PcapConfig(Path rxFile, Path txFile, Replay replay, boolean nanosecondOutput) {

    public enum Replay {
        /** Every frame is available at once: the engine takes them as fast as it can. */
        FULL_SPEED,
        /** A frame becomes available when as much time has passed since the first as the capture says. */
        ORIGINAL_TIMING
    }

    public PcapConfig {
        if (rxFile == null && txFile == null) {
            throw new IllegalArgumentException("a pcap port needs an RX file, a TX file or both");
        }
        if (replay == null) {
            throw new IllegalArgumentException("replay mode is required");
        }
    }

    public static PcapConfig of(Path rxFile, Path txFile) {
        return new PcapConfig(rxFile, txFile, Replay.FULL_SPEED, false);
    }
}
