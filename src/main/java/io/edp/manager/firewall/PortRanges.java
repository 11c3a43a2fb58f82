package io.edp.manager.firewall;

import io.edp.engine.slowpath.PortRange;

/** The API's port-range text: {@code 23} or {@code 1024-65535}; null or blank is any port. */
final class PortRanges {

    private PortRanges() {
    }

    /** @throws IllegalArgumentException saying what is wrong, e.g. a reversed range */
    static PortRange parse(String text) {
        if (text == null || text.isBlank()) {
            return PortRange.ANY;
        }
        var parts = text.strip().split("-", -1);
        if (parts.length > 2 || !parts[0].strip().matches("\\d{1,5}")
                || (parts.length == 2 && !parts[1].strip().matches("\\d{1,5}"))) {
            throw new IllegalArgumentException("must be a port (0-65535) or a range like 1024-65535: " + text);
        }
        int from = Integer.parseInt(parts[0].strip());
        int to = parts.length == 2 ? Integer.parseInt(parts[1].strip()) : from;
        if (to > 65535) {
            throw new IllegalArgumentException("ports go up to 65535: " + text);
        }
        if (from > to) {
            throw new IllegalArgumentException("range is reversed (from > to): " + text);
        }
        return new PortRange(from, to);
    }

    /** The canonical text of a range given by the client; null when any. */
    static String format(PortRange range) {
        return range.equals(PortRange.ANY) ? null : range.from() == range.to() ? Integer.toString(range.from())
                : range.from() + "-" + range.to();
    }
}
