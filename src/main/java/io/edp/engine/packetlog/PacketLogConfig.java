package io.edp.engine.packetlog;

import java.util.List;
import java.util.Objects;

/**
 * Where and how fast the distributed firewall's packet log goes: syslog servers (RFC 5424 over UDP or TCP) and/or
 * a local file rotated by size, with each worker allowed {@code linesPerSecond} lines (bursts of as many). Rules
 * flagged {@code log} are logged only while {@link #enabled()}.
 *
 * @param enabled        whether logged rules produce lines at all
 * @param servers        syslog servers every line is sent to
 * @param file           the local file lines are appended to, null for none
 * @param fileMaxBytes   the size at which the file is rotated
 * @param fileCount      rotated files kept ({@code file.1} … {@code file.N})
 * @param linesPerSecond each worker's rate limit; lines over it are counted as suppressed
 */
public record PacketLogConfig(boolean enabled, List<SyslogServer> servers, String file, long fileMaxBytes,
        int fileCount, int linesPerSecond) {

    public static final long DEFAULT_FILE_MAX_BYTES = 10L << 20;
    public static final int DEFAULT_FILE_COUNT = 5;
    public static final int DEFAULT_LINES_PER_SECOND = 1_000;
    public static final int MAX_LINES_PER_SECOND = 1_000_000;
    public static final PacketLogConfig DISABLED = new PacketLogConfig(false, List.of(), null,
            DEFAULT_FILE_MAX_BYTES, DEFAULT_FILE_COUNT, DEFAULT_LINES_PER_SECOND);

    /** A syslog server; {@code transport} is UDP (one message a datagram) or TCP (RFC 6587 octet counting). */
    public record SyslogServer(String host, int port, Transport transport) {

        public SyslogServer {
            Objects.requireNonNull(host, "packetLog.servers[].host");
            Objects.requireNonNull(transport, "packetLog.servers[].transport");
            if (port < 1 || port > 65_535) {
                throw new IllegalArgumentException("packetLog.servers[" + host + "].port must be 1..65535: " + port);
            }
        }
    }

    public enum Transport {
        UDP, TCP
    }

    public PacketLogConfig {
        servers = List.copyOf(servers == null ? List.of() : servers);
        if (fileMaxBytes < 1024) {
            throw new IllegalArgumentException("packetLog.fileMaxBytes must be at least 1024: " + fileMaxBytes);
        }
        if (fileCount < 1 || fileCount > 100) {
            throw new IllegalArgumentException("packetLog.fileCount must be 1..100: " + fileCount);
        }
        if (linesPerSecond < 1 || linesPerSecond > MAX_LINES_PER_SECOND) {
            throw new IllegalArgumentException("packetLog.linesPerSecond must be 1.." + MAX_LINES_PER_SECOND + ": "
                    + linesPerSecond);
        }
    }

    /** Logging to the given servers and file (null for none), with the default rotation and rate limit. */
    public static PacketLogConfig to(List<SyslogServer> servers, String file) {
        return new PacketLogConfig(true, servers, file, DEFAULT_FILE_MAX_BYTES, DEFAULT_FILE_COUNT,
                DEFAULT_LINES_PER_SECOND);
    }

    public PacketLogConfig withLinesPerSecond(int lines) {
        return new PacketLogConfig(enabled, servers, file, fileMaxBytes, fileCount, lines);
    }

    public PacketLogConfig withFileRotation(long maxBytes, int count) {
        return new PacketLogConfig(enabled, servers, file, maxBytes, count, linesPerSecond);
    }
}
