package io.edp.engine.packet;

import java.nio.ByteBuffer;

/** Builds Ethernet frames for tests, field by field, big-endian as on the wire. */
public final class Frames {

    private final ByteBuffer b = ByteBuffer.allocate(2048);

    public static Frames ethernet(long dstMac, long srcMac) {
        Frames f = new Frames();
        f.mac(dstMac).mac(srcMac);
        return f;
    }

    public Frames mac(long mac) {
        b.putShort((short) (mac >>> 32)).putInt((int) mac);
        return this;
    }

    public Frames vlan(int tpid, int vid) {
        b.putShort((short) tpid).putShort((short) vid);
        return this;
    }

    public Frames u8(int v) {
        b.put((byte) v);
        return this;
    }

    public Frames u16(int v) {
        b.putShort((short) v);
        return this;
    }

    public Frames u32(int v) {
        b.putInt(v);
        return this;
    }

    public Frames u64(long v) {
        b.putLong(v);
        return this;
    }

    public Frames zeros(int n) {
        for (int i = 0; i < n; i++) {
            b.put((byte) 0);
        }
        return this;
    }

    /** An IPv4 header (20 bytes + {@code optionWords} × 4) announcing {@code payload} bytes after it. */
    public Frames ipv4(int proto, int src, int dst, int ttl, int optionWords, int payload) {
        int ihl = 5 + optionWords;
        u16(FlowKey.ETHERTYPE_IPV4);
        u8(0x40 | ihl).u8(0).u16(ihl * 4 + payload).u16(0).u16(0x4000).u8(ttl).u8(proto).u16(0).u32(src).u32(dst);
        for (int i = 0; i < optionWords; i++) {
            u32(0x01010101); // NOPs
        }
        return this;
    }

    public Frames ipv6(int next, long srcHi, long srcLo, long dstHi, long dstLo, int payload) {
        u16(FlowKey.ETHERTYPE_IPV6);
        return u32(6 << 28).u16(payload).u8(next).u8(64).u64(srcHi).u64(srcLo).u64(dstHi).u64(dstLo);
    }

    public Frames udp(int sport, int dport, int payload) {
        return u16(sport).u16(dport).u16(8 + payload).u16(0).zeros(payload);
    }

    public Frames tcp(int sport, int dport, int flags, int payload) {
        return u16(sport).u16(dport).u32(1).u32(0).u8(5 << 4).u8(flags).u16(0xFFFF).u16(0).u16(0).zeros(payload);
    }

    public Frames icmp(int type, int code) {
        return u8(type).u8(code).u16(0).u32(0);
    }

    public int length() {
        return b.position();
    }

    public byte[] bytes() {
        byte[] out = new byte[b.position()];
        b.duplicate().flip().get(out);
        return out;
    }
}
