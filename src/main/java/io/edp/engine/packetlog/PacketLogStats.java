package io.edp.engine.packetlog;

/**
 * The packet log's counters since the engine started: lines the workers queued, lines the rate limit suppressed,
 * lines lost to a full hand-off ring, lines written to every output, and failed deliveries (a line an output
 * refused, counted per output).
 */
public record PacketLogStats(boolean enabled, long queued, long suppressed, long lost, long written,
        long outputErrors) {
}
