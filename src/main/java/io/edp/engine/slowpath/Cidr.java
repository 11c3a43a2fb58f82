package io.edp.engine.slowpath;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An IPv4 or IPv6 prefix in the flow key's address form: 128 bits as (hi, lo), IPv4 in the top 32 bits of hi.
 * {@code version} 0 with length 0 is "any" (both families).
 */
public record Cidr(int version, long hi, long lo, int length) {

    public static final Cidr ANY = new Cidr(0, 0, 0, 0);

    /** Parses {@code a.b.c.d/len}, {@code x::y/len}, a bare address (host prefix) or {@code any}. */
    public static Cidr parse(String text, String field) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(field + ": a CIDR is required");
        }
        if (text.equalsIgnoreCase("any")) {
            return ANY;
        }
        int slash = text.indexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        if (!address.contains(":") && !address.matches("[0-9.]+")) {
            throw new IllegalArgumentException(field + ": not an IP address: " + text);
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(address).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(field + ": not an IP address: " + text, e);
        }
        int max = bytes.length * 8;
        int length;
        try {
            length = slash < 0 ? max : Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + ": bad prefix length in " + text, e);
        }
        if (length < 0 || length > max) {
            throw new IllegalArgumentException(field + ": prefix length must be 0.." + max + ": " + text);
        }
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (i < 8) {
                hi |= (bytes[i] & 0xFFL) << (56 - 8 * i);
            } else {
                lo |= (bytes[i] & 0xFFL) << (56 - 8 * (i - 8));
            }
        }
        return new Cidr(bytes.length == 4 ? 4 : 6, hi & maskHi(length), lo & maskLo(length), length);
    }

    public static long maskHi(int length) {
        return length == 0 ? 0 : length >= 64 ? -1L : -1L << (64 - length);
    }

    public static long maskLo(int length) {
        return length <= 64 ? 0 : length >= 128 ? -1L : -1L << (128 - length);
    }
}
