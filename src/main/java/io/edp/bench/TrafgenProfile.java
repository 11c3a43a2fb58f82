package io.edp.bench;

/**
 * What trafgen (netsniff-ng) sends: Ethernet/IPv4/UDP frames 10.0.0.1 → 10.0.1.1, UDP port 4000, with the
 * source port cycling over {@code flows} values from 1000, so {@code flows} distinct 5-tuples. They are addressed
 * to the engine's default router MAC, so an engine routes them.
 *
 * @param frameBytes the frame as on the wire including its 4-byte FCS (64 = trafgen sends 60 bytes); a VLAN
 *                   tag, when there is one, adds 4 bytes to it
 * @param vlan       802.1Q VLAN id, 0 for untagged
 */
public record TrafgenProfile(int flows, int frameBytes, int vlan) {

    private static final int FCS = 4;
    private static final int HEADERS = 14 + 20 + 8;
    public static final int FIRST_SOURCE_PORT = 1000;
    public static final int DESTINATION_PORT = 4000;

    public TrafgenProfile {
        if (flows < 1 || flows > 65_535 - FIRST_SOURCE_PORT) {
            throw new IllegalArgumentException("flows must be in [1, " + (65_535 - FIRST_SOURCE_PORT) + "]: " + flows);
        }
        if (frameBytes < 64 || frameBytes > 1518) {
            throw new IllegalArgumentException("frameBytes must be in [64, 1518]: " + frameBytes);
        }
    }

    /** The packet description in trafgen's configuration language. */
    public String config() {
        String sourcePort = flows == 1 ? Integer.toString(FIRST_SOURCE_PORT)
                : "dinc(" + FIRST_SOURCE_PORT + ", " + (FIRST_SOURCE_PORT + flows - 1) + ")";
        return "{\n  eth(da=02:ed:00:00:00:01, sa=02:00:00:00:00:01),\n"
                + (vlan == 0 ? "" : "  vlan(id=" + vlan + "),\n")
                + "  ipv4(sa=10.0.0.1, da=10.0.1.1, ttl=64),\n"
                + "  udp(sp=" + sourcePort + ", dp=" + DESTINATION_PORT + "),\n"
                + "  fill(0x00, " + (frameBytes - FCS - HEADERS) + ")\n}\n";
    }
}
