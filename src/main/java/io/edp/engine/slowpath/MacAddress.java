package io.edp.engine.slowpath;

import java.util.HexFormat;

/** MAC addresses as 48-bit longs, the form the flow key and the switching table use. */
public final class MacAddress {

    public static final long BROADCAST = 0xFFFF_FFFF_FFFFL;

    private MacAddress() {
    }

    public static long parse(String text, String field) {
        if (text == null || !text.matches("([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}")) {
            throw new IllegalArgumentException(field + ": not a MAC address (aa:bb:cc:dd:ee:ff): " + text);
        }
        return HexFormat.fromHexDigitsToLong(text.replaceAll("[:-]", ""));
    }

    public static String format(long mac) {
        StringBuilder s = new StringBuilder();
        for (int i = 5; i >= 0; i--) {
            s.append(HexFormat.of().toHexDigits((byte) (mac >>> (8 * i))));
            if (i > 0) {
                s.append(':');
            }
        }
        return s.toString();
    }
}
