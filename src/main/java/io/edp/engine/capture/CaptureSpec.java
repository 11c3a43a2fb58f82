package io.edp.engine.capture;

import java.time.Duration;

/**
 * What a live capture records: the frames port {@code port} receives (before the pipeline), transmits (after the
 * rewrite) or both, that pass {@code filter}, each cut to {@code snaplen} bytes; it ends after {@code maxPackets}
 * frames or {@code maxDuration}, whichever comes first.
 *
 * @param ringFrames frames each worker's ring holds between two drains (a power of two); what does not fit is
 *                   counted as dropped
 * @param nanosecondTimestamps a file stamped in nanoseconds instead of microseconds
 * @param format the file's format: classic pcap, or pcapng, whose packets say whether the port received or sent them
 */
public record CaptureSpec(int port, Direction direction, CaptureFilter filter, int snaplen, long maxPackets,
        Duration maxDuration, int ringFrames, boolean nanosecondTimestamps, Format format) {

    public static final int MIN_SNAPLEN = 64;
    /** A buffer's data room: no frame is longer. */
    public static final int MAX_SNAPLEN = 2048;
    public static final int DEFAULT_RING_FRAMES = 1024;

    /** Where the capture taps the port. */
    public enum Direction {
        RX, TX, BOTH;

        boolean rx() {
            return this != TX;
        }

        boolean tx() {
            return this != RX;
        }
    }

    /** The capture file's format. */
    public enum Format {
        /** Classic libpcap: what tcpdump writes; no direction per packet. */
        PCAP("pcap"),
        /** pcapng: what dumpcap and Wireshark write; each packet marked inbound or outbound. */
        PCAPNG("pcapng");

        private final String extension;

        Format(String extension) {
            this.extension = extension;
        }

        /** The file name's extension, without the dot. */
        public String extension() {
            return extension;
        }
    }

    public CaptureSpec {
        if (direction == null || filter == null || maxDuration == null || format == null) {
            throw new IllegalArgumentException("direction, filter, maxDuration and format are required");
        }
        if (snaplen < MIN_SNAPLEN || snaplen > MAX_SNAPLEN) {
            throw new IllegalArgumentException("snaplen must be " + MIN_SNAPLEN + ".." + MAX_SNAPLEN + ": " + snaplen);
        }
        if (maxPackets < 1 || maxDuration.isNegative() || maxDuration.isZero()) {
            throw new IllegalArgumentException("maxPackets and maxDuration must be positive");
        }
        if (Integer.bitCount(ringFrames) != 1) {
            throw new IllegalArgumentException("ringFrames must be a power of two: " + ringFrames);
        }
    }

    /** Whole frames, the default ring, a classic pcap file in microseconds. */
    public static CaptureSpec of(int port, Direction direction, CaptureFilter filter, long maxPackets,
            Duration maxDuration) {
        return new CaptureSpec(port, direction, filter, MAX_SNAPLEN, maxPackets, maxDuration, DEFAULT_RING_FRAMES,
                false, Format.PCAP);
    }

    public CaptureSpec withRingFrames(int frames) {
        return new CaptureSpec(port, direction, filter, snaplen, maxPackets, maxDuration, frames,
                nanosecondTimestamps, format);
    }

    public CaptureSpec withSnaplen(int bytes) {
        return new CaptureSpec(port, direction, filter, bytes, maxPackets, maxDuration, ringFrames,
                nanosecondTimestamps, format);
    }

    public CaptureSpec withFormat(Format fileFormat) {
        return new CaptureSpec(port, direction, filter, snaplen, maxPackets, maxDuration, ringFrames,
                nanosecondTimestamps, fileFormat);
    }

    /** Heap the capture's rings take on an engine of {@code workers} workers, allocated when it starts. */
    public long ringBytes(int workers) {
        return CaptureRing.bytes(ringFrames, snaplen) * workers;
    }

    /** {@link #ringBytes} of a capture with the default ring of whole frames: the largest the API starts. */
    public static long defaultRingBytes(int workers) {
        return CaptureRing.bytes(DEFAULT_RING_FRAMES, MAX_SNAPLEN) * workers;
    }
}
