package io.edp.engine.slowpath;

/** An inclusive L4 port range; {@link #ANY} is 0..65535. */
public record PortRange(int from, int to) {

    public static final PortRange ANY = new PortRange(0, 65535);

    public PortRange {
        if (from < 0 || to > 65535 || from > to) {
            throw new IllegalArgumentException("port range must satisfy 0 <= from <= to <= 65535: " + from + "-" + to);
        }
    }

    public static PortRange of(int port) {
        return new PortRange(port, port);
    }
}
