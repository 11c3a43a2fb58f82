package io.edp.engine.packet;

import static io.edp.engine.packet.NetworkOrder.U16;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The Internet checksum (RFC 1071): a one's-complement sum of 16-bit words. {@link #add} accumulates words into
 * an unfolded {@code long}, so a pseudo-header, a header and a payload are summed piece by piece;
 * {@link #finish} folds and complements the sum into the value a header carries.
 */
public final class InternetChecksum {

    private InternetChecksum() {
    }

    /** Adds the {@code length} bytes at {@code at} (an odd last byte is padded with zero) to {@code sum}. */
    public static long add(long sum, MemorySegment data, long at, int length) {
        int i = 0;
        for (; i + 1 < length; i += 2) {
            sum += data.get(U16, at + i) & 0xFFFF;
        }
        if (i < length) {
            sum += (data.get(ValueLayout.JAVA_BYTE, at + i) & 0xFF) << 8;
        }
        return sum;
    }

    /** The checksum field for {@code sum}: folded to 16 bits and complemented. */
    public static short finish(long sum) {
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (short) ~sum;
    }
}
