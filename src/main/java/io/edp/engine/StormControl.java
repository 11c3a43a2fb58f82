package io.edp.engine;

/**
 * Storm control on flooded frames, as a physical switch's storm control or an NSX segment security profile's
 * broadcast / multicast rate limits: each worker floods at most {@code framesPerSecond} broadcast and multicast
 * frames a second, with bursts of up to {@code burst}; a frame beyond is dropped and counted, so a broadcast storm
 * cannot turn into a copy of every frame on every port of its VLAN. The limit is per worker (a token bucket of its
 * own, no shared state on the hot path), so an engine floods at most {@code workers × framesPerSecond}.
 */
public record StormControl(int framesPerSecond, int burst) {

    /** Far above what ARP, neighbor discovery and service discovery send; far below a storm's line rate. */
    public static final StormControl DEFAULT = new StormControl(10_000, 1_000);
    public static final int MAX_FRAMES_PER_SECOND = 10_000_000;
    public static final int MAX_BURST = 1_000_000;

    public StormControl {
        if (framesPerSecond < 1 || framesPerSecond > MAX_FRAMES_PER_SECOND) {
            throw new IllegalArgumentException("stormControl.framesPerSecond must be 1.." + MAX_FRAMES_PER_SECOND
                    + ": " + framesPerSecond);
        }
        if (burst < 1 || burst > MAX_BURST) {
            throw new IllegalArgumentException("stormControl.burst must be 1.." + MAX_BURST + ": " + burst);
        }
    }
}
