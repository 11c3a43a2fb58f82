package io.edp.engine.slowpath;

/**
 * Which connections to list or clear, as {@code conntrack -L} / {@code -D} select them. Every field is optional
 * ({@code null}, -1 or 0: any). Without a {@code peer}, {@code address} and {@code port} each match either end;
 * with one, one end must match ({@code address}, {@code port}) and the other ({@code peer}, {@code peerPort}): a
 * whole tuple names one connection. ICMP connections have no ports (they are tracked by addresses).
 */
public record ConnectionFilter(Cidr address, int port, Cidr peer, int peerPort, int protocol, int state) {

    public static final ConnectionFilter ALL = new ConnectionFilter(null, -1, null, -1, -1, 0);

    /** The connection between two ends, as {@link ConnectionEntry#id()} names it. */
    public static ConnectionFilter tuple(int protocol, String source, int sourcePort, String destination,
            int destinationPort) {
        return new ConnectionFilter(Cidr.parse(source, "source"), sourcePort, Cidr.parse(destination, "destination"),
                destinationPort, protocol, 0);
    }

    /** Whether this filter selects every connection. */
    public boolean all() {
        return address == null && port < 0 && peer == null && peerPort < 0 && protocol < 0 && state == 0;
    }

    boolean matches(long aHi, long aLo, int aPort, long bHi, long bLo, int bPort, int proto, int version,
            int connectionState) {
        if ((protocol >= 0 && proto != protocol) || (state != 0 && connectionState != state)
                || !family(address, version) || !family(peer, version)) {
            return false;
        }
        if (peer == null) {
            return (address == null || in(address, aHi, aLo) || in(address, bHi, bLo))
                    && (port < 0 || aPort == port || bPort == port);
        }
        return end(address, port, aHi, aLo, aPort) && end(peer, peerPort, bHi, bLo, bPort)
                || end(address, port, bHi, bLo, bPort) && end(peer, peerPort, aHi, aLo, aPort);
    }

    private static boolean end(Cidr cidr, int port, long hi, long lo, int endPort) {
        return (cidr == null || in(cidr, hi, lo)) && (port < 0 || endPort == port);
    }

    private static boolean family(Cidr cidr, int version) {
        return cidr == null || cidr.version() == 0 || cidr.version() == version;
    }

    private static boolean in(Cidr cidr, long hi, long lo) {
        return (hi & Cidr.maskHi(cidr.length())) == cidr.hi() && (lo & Cidr.maskLo(cidr.length())) == cidr.lo();
    }
}
