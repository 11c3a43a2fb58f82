package io.edp.engine.slowpath;

import java.util.HexFormat;

/** MAC addresses as 48-bit longs, the form the flow key and the switching table use. */
public final class MacAddress {

    public static final long BROADCAST = 0xFFFF_FFFF_FFFFL;
    private static final int TEXT_LENGTH = 17;

    private MacAddress() {
    }

    /**
     * Six hex pairs, each but the last followed by ':' or '-'. Read by hand rather than by a regular expression:
     * every configuration an engine applies parses its MACs, and a regex compiled per call was a tenth of what an
     * agent allocated applying a change.
     */
    public static long parse(String text, String field) {
        if (text == null || text.length() != TEXT_LENGTH) {
            throw notAMac(text, field);
        }
        long mac = 0;
        for (int at = 0; at < TEXT_LENGTH; at += 3) {
            int high = hexDigit(text.charAt(at));
            int low = hexDigit(text.charAt(at + 1));
            boolean separated = at + 2 == TEXT_LENGTH || text.charAt(at + 2) == ':' || text.charAt(at + 2) == '-';
            if (high < 0 || low < 0 || !separated) {
                throw notAMac(text, field);
            }
            mac = mac << 8 | high << 4 | low;
        }
        return mac;
    }

    /** 0–15 for an ASCII hex digit, else -1 ({@link Character#digit} would also take fullwidth digits). */
    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        char lower = (char) (c | 0x20);
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }

    private static IllegalArgumentException notAMac(String text, String field) {
        return new IllegalArgumentException(field + ": not a MAC address (aa:bb:cc:dd:ee:ff): " + text);
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
