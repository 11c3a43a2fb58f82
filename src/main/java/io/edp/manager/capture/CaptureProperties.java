package io.edp.manager.capture;

import java.nio.file.Path;
import java.time.Duration;

import io.edp.engine.capture.CaptureSpec;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Live captures: where their pcap files go and how many are kept how long.
 *
 * @param dir        the only directory capture files are written in; not set: {@code capture} under the data directory.
 *                   Its {@code *.pcap} and {@code *.pcapng} files are the manager's: at start-up, those older than the
 *                   retention are deleted (files of a previous run, which no listing shows any more)
 * @param retention  how long an ended capture and its file are kept
 * @param maxKept    captures kept per host, running or ended; a new one removes the oldest ended one beyond it
 * @param maxRunning captures running at once per host
 * @param maxAgentFile the largest file a capture on a host placed AGENT may write: its agent uploads it into the
 *                     database, and a replica holds it in memory to serve it. A capture whose limits (packets times
 *                     snaplen) could write more is refused (400 on maxPackets)
 * @param unreportedAfter how long after its time limit a capture on a host placed AGENT whose agent has not
 *                        reported its end is shown ENDED, UNREPORTED, without asking the agent any more
 */
@ConfigurationProperties("edp.capture")
public record CaptureProperties(Path dir, @DefaultValue("1h") Duration retention, @DefaultValue("20") int maxKept,
                                @DefaultValue("4") int maxRunning, @DefaultValue("64MB") DataSize maxAgentFile,
                                @DefaultValue("30s") Duration unreportedAfter) {

    public CaptureProperties {
        if (maxRunning < 1 || maxKept < maxRunning) {
            throw new IllegalArgumentException("edp.capture: max-running must be at least 1 and at most max-kept: "
                    + maxRunning + ", " + maxKept);
        }
        if (retention.isNegative()) {
            throw new IllegalArgumentException("edp.capture.retention must not be negative: " + retention);
        }
        if (unreportedAfter.isNegative()) {
            throw new IllegalArgumentException("edp.capture.unreported-after must not be negative: "
                    + unreportedAfter);
        }
    }

    /**
     * The heap the rings of {@code maxRunning} captures take on an engine of {@code workers} workers, at most: what
     * an embedded host reserves for its captures in the engines' memory budget, so that a capture never needs memory
     * the budget did not count.
     */
    public long ringBytes(int workers) {
        return maxRunning * CaptureSpec.defaultRingBytes(workers);
    }
}
