package io.edp.engine.nic;

import java.util.HexFormat;

/**
 * A vNIC as a NIC sees it: its unicast MAC address (48 bits) on its VLAN id (0 = untagged), what a NetQueue filter
 * matches. The engine tells its drivers which vNICs it switches to ({@link NicDriver#vnicsChanged}).
 */
public record VnicAddress(long mac, int vlan) {

    public VnicAddress {
        if ((mac >>> 48) != 0) {
            throw new IllegalArgumentException("a MAC address has 48 bits: " + Long.toHexString(mac));
        }
        if ((mac >>> 40 & 0x01) != 0) {
            throw new IllegalArgumentException("NetQueue filters match unicast MACs, got a group address");
        }
        if (vlan < 0 || vlan > 4094) {
            throw new IllegalArgumentException("VLAN id out of 0..4094: " + vlan);
        }
    }

    /** Parses {@code aa:bb:cc:dd:ee:ff}. */
    public static VnicAddress of(String mac, int vlan) {
        return new VnicAddress(HexFormat.fromHexDigitsToLong(mac.replace(":", "")), vlan);
    }

    @Override
    public String toString() {
        String digits = HexFormat.of().toHexDigits(mac).substring(4);
        StringBuilder text = new StringBuilder(24);
        for (int i = 0; i < digits.length(); i += 2) {
            text.append(i == 0 ? "" : ":").append(digits, i, i + 2);
        }
        return text.append("/vlan").append(vlan).toString();
    }
}
