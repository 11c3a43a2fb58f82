package io.edp.engine.slowpath;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * One tracked connection as {@link ConnectionTable#list} reads it, seen from its initiator: source is the end that
 * opened it. {@code state} is one of {@link ConnectionTable#SYN_SENT} .. {@link ConnectionTable#ACTIVE};
 * {@code ruleId} the rule that allowed it (0: no rule matched); {@code egressPort} -1 when it was routed.
 * {@code idleMillis} is the time since its last packet on either path, {@code expiresInMillis} what is left of its
 * state's idle timeout.
 */
public record ConnectionEntry(int protocol, int ipVersion, String source, int sourcePort, String destination,
        int destinationPort, int state, int ruleId, int ingressPort, int egressPort, long idleMillis,
        long expiresInMillis) {

    /**
     * The connection's name, unique in its table while it lives: protocol, source, source port, destination and
     * destination port joined by {@code -} (IPv6 addresses keep their colons), e.g.
     * {@code 6-10.0.0.1-40000-10.0.0.2-80}.
     */
    public String id() {
        return protocol + "-" + source + "-" + sourcePort + "-" + destination + "-" + destinationPort;
    }

    /**
     * The filter that selects the connection named {@code id} ({@link #id()}); either direction's tuple names it.
     *
     * @throws IllegalArgumentException when {@code id} is not such a name
     */
    public static ConnectionFilter filterFor(String id) {
        String[] parts = id.split("-", -1);
        if (parts.length != 5) {
            throw new IllegalArgumentException("connectionId: expected protocol-source-sourcePort-destination-"
                    + "destinationPort: " + id);
        }
        try {
            return ConnectionFilter.tuple(Integer.parseInt(parts[0]), host(parts[1]), Integer.parseInt(parts[2]),
                    host(parts[3]), Integer.parseInt(parts[4]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("connectionId: protocol and ports must be numbers: " + id, e);
        }
    }

    private static String host(String address) {
        if (address.contains("/")) {
            throw new IllegalArgumentException("connectionId: an address, not a prefix: " + address);
        }
        return address;
    }

    /** The text of an address in the flow key's form (IPv4 in the top 32 bits of {@code hi}). */
    static String address(int version, long hi, long lo) {
        byte[] bytes = new byte[version == 4 ? 4 : 16];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) ((i < 8 ? hi : lo) >>> (56 - 8 * (i % 8)));
        }
        try {
            return InetAddress.getByAddress(bytes).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // only for a wrong length, which cannot happen
        }
    }
}
