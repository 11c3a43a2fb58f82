package io.edp.engine.nic.steering;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;

/**
 * The Toeplitz hash NICs use for RSS (Microsoft's "RSS hashing functions"): every set bit {@code k} of the input
 * (most significant bit first) XORs the 32 key bits starting at bit {@code k} into the result.
 *
 * <p>Per packet we do one table lookup per input byte: for each input position {@code p} and byte value
 * {@code v} the table holds the XOR of the key windows of the bits set in {@code v}. A 40-byte key covers the
 * longest input RSS defines, IPv6 addresses plus ports (36 bytes). No allocation after construction.
 *
 * <p>Input order is the one the NIC uses: source address, destination address, source port, destination port,
 * all in network byte order. {@link #accumulate} lets a caller hash the fields straight out of a frame.
 */
public final class ToeplitzHash {

    public static final int KEY_BYTES = 40;

    /** The longest input: IPv6 source and destination addresses and TCP/UDP ports. */
    public static final int MAX_INPUT_BYTES = 36;

    /** Microsoft's default RSS key, also the default of most NIC drivers and of the verification suite. */
    public static final byte[] MICROSOFT_KEY = HexFormat.of().parseHex(
            "6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa");

    /**
     * A key whose 16-bit pattern repeats, so swapping source and destination (addresses and ports, IPv4 or
     * IPv6) gives the same hash: both directions of a connection land in the same queue
     * (Woo and Park, "Scalable TCP Session Monitoring with Symmetric Receive-side Scaling").
     */
    public static final byte[] SYMMETRIC_KEY = HexFormat.of().parseHex("6d5a".repeat(KEY_BYTES / 2));

    private final int[] table = new int[MAX_INPUT_BYTES * 256];

    public ToeplitzHash(byte[] key) {
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException("a Toeplitz key has " + KEY_BYTES + " bytes, got " + key.length);
        }
        for (int position = 0; position < MAX_INPUT_BYTES; position++) {
            for (int value = 0; value < 256; value++) {
                int contribution = 0;
                for (int bit = 0; bit < 8; bit++) {
                    if ((value & (0x80 >>> bit)) != 0) {
                        contribution ^= keyWindow(key, position * 8 + bit);
                    }
                }
                table[position * 256 + value] = contribution;
            }
        }
    }

    /** The 32 key bits starting at bit {@code first}, bit 0 being the most significant bit of key[0]. */
    private static int keyWindow(byte[] key, int first) {
        int window = 0;
        for (int i = 0; i < 32; i++) {
            int bit = first + i;
            int set = (key[bit >>> 3] >>> (7 - (bit & 7))) & 1;
            window = (window << 1) | set;
        }
        return window;
    }

    /**
     * Adds {@code length} bytes of {@code segment} at {@code offset} to {@code hash} as input bytes
     * {@code [position, position + length)}. Start with hash 0 and position 0.
     */
    public int accumulate(int hash, int position, MemorySegment segment, long offset, int length) {
        int h = hash;
        int row = position * 256;
        for (int i = 0; i < length; i++, row += 256) {
            h ^= table[row + (segment.get(ValueLayout.JAVA_BYTE, offset + i) & 0xff)];
        }
        return h;
    }

    /** The hash of {@code input[0, length)}. */
    public int hash(MemorySegment input, long offset, int length) {
        if (length > MAX_INPUT_BYTES) {
            throw new IllegalArgumentException("RSS input is at most " + MAX_INPUT_BYTES + " bytes");
        }
        return accumulate(0, 0, input, offset, length);
    }
}
