package io.edp.engine.packet;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

import io.edp.engine.mbuf.Mbuf;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The exact flow key the parser writes into an mbuf's second cache line ({@link Mbuf#FLOW_KEY_OFFSET}), as six
 * 64-bit words followed by parse details the slow path needs but the key does not include.
 * <pre>
 *  off size field
 *    0   8  srcHi    IPv6 source bits 127..64; IPv4 source in bits 63..32 (so one LPM serves both)
 *    8   8  srcLo    IPv6 source bits 63..0; 0 for IPv4
 *   16   8  dstHi    as srcHi, destination
 *   24   8  dstLo    as srcLo, destination
 *   32   8  l4       srcPort(16) dstPort(16) proto(8) ipVersion(8) inPort(16); ICMP: type and code as ports
 *   40   8  l2       destination MAC (48) outer VLAN tag (16: 0x1000 = tagged | VID)
 *   48   1  tcpFlags
 *   49   1  ttl      IPv4 TTL or IPv6 hop limit
 *   50   1  flags    {@link #FLAG_SLOW_PATH_ONLY}, {@link #FLAG_FRAGMENT}, {@link #FLAG_LATER_FRAGMENT}
 *   51   1  reserved
 *   52   2  innerTag QinQ inner tag, as the outer one
 *   54   2  etherType
 *   56   2  reserved
 *   58   6  srcMac
 * </pre>
 * Bytes 48..63 are written as two little-endian words ({@link #writeDetails}), so their fields read little-endian.
 * The flow cache keys on words 0..5. The destination MAC is in the key because the IOChain's decision depends
 * on it (switched to a vNIC, or routed when it is the router's); the etherType is implied by ipVersion because
 * only IP flows are cached, and QinQ frames (rare on VM ports) always take the IOChain, so the inner tag stays
 * out of the key and the key stays six words.
 */
public final class FlowKey {

    public static final int SRC_HI = 0;
    public static final int SRC_LO = 8;
    public static final int DST_HI = 16;
    public static final int DST_LO = 24;
    public static final int L4 = 32;
    public static final int L2 = 40;
    public static final int TCP_FLAGS = 48;
    public static final int TTL = 49;
    public static final int INNER_TAG = 52;
    public static final int ETHER_TYPE = 54;
    public static final int SRC_MAC = 58;

    public static final int VLAN_TAGGED = 0x1000;
    /** Set for frames the flow cache never serves (ARP, QinQ, IP fragments): they always run the IOChain. */
    public static final int FLAG_SLOW_PATH_ONLY = 1;
    /** Part of a fragmented IP datagram ({@link io.edp.engine.mbuf.Mbuf#fragmentId()} identifies it). */
    public static final int FLAG_FRAGMENT = 2;
    /** A fragment other than the first: it carries no transport header, so its ports in the key are 0. */
    public static final int FLAG_LATER_FRAGMENT = 4;

    public static final int TCP_FIN = 0x01;
    public static final int TCP_SYN = 0x02;
    public static final int TCP_RST = 0x04;
    public static final int TCP_ACK = 0x10;

    /** The group bit of a destination MAC in the key's 48-bit form: broadcast and multicast. */
    public static final long GROUP_MAC = 1L << 40;

    public static final int PROTO_ICMP = 1;
    public static final int PROTO_TCP = 6;
    public static final int PROTO_UDP = 17;
    public static final int PROTO_ICMPV6 = 58;

    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    public static final int ETHERTYPE_ARP = 0x0806;
    public static final int ETHERTYPE_VLAN = 0x8100;
    public static final int ETHERTYPE_QINQ = 0x88A8;

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    /** Bytes 48..63 are little-endian, so that {@link #writeDetails} writes them as two words on any machine. */
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LITTLE_ENDIAN);
    private static final ValueLayout.OfLong DETAILS = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(LITTLE_ENDIAN);

    private FlowKey() {
    }

    public static long l4Word(int srcPort, int dstPort, int proto, int ipVersion, int inPort) {
        return ((long) srcPort << 48) | ((long) dstPort << 32) | ((long) proto << 24) | ((long) ipVersion << 16)
                | inPort;
    }

    public static long l2Word(long dstMac, int outerTag) {
        return (dstMac << 16) | outerTag;
    }

    public static int srcPort(long l4) {
        return (int) (l4 >>> 48);
    }

    public static int dstPort(long l4) {
        return (int) (l4 >>> 32) & 0xFFFF;
    }

    public static int proto(long l4) {
        return (int) (l4 >>> 24) & 0xFF;
    }

    public static int ipVersion(long l4) {
        return (int) (l4 >>> 16) & 0xFF;
    }

    public static int inPort(long l4) {
        return (int) l4 & 0xFFFF;
    }

    public static int outerTag(long l2) {
        return (int) l2 & 0xFFFF;
    }

    public static long dstMac(long l2) {
        return l2 >>> 16;
    }

    public static int innerTag(MemorySegment descriptors, long keyBase) {
        return descriptors.get(SHORT, keyBase + INNER_TAG) & 0xFFFF;
    }

    public static int etherType(MemorySegment descriptors, long keyBase) {
        return descriptors.get(SHORT, keyBase + ETHER_TYPE) & 0xFFFF;
    }

    /** The key word at {@code word} (0..5) of the mbuf at descriptor offset {@code keyBase}. */
    public static long word(MemorySegment descriptors, long keyBase, int offset) {
        return descriptors.get(LONG, keyBase + offset);
    }

    public static int tcpFlags(MemorySegment descriptors, long keyBase) {
        return tcpFlags(details(descriptors, keyBase));
    }

    /**
     * Bytes 48..55 of the key as one word ({@link #writeDetails}): a packet's TCP flags and flags in one load,
     * which {@link #tcpFlags(long)} and {@link #flags(long)} take apart.
     */
    public static long details(MemorySegment descriptors, long keyBase) {
        return descriptors.get(DETAILS, keyBase + TCP_FLAGS);
    }

    /**
     * The details word of a frame with {@code flags}, the inner tag and the etherType; the parser ORs the TTL
     * ({@link #withTtl}) and the TCP flags into it as it reaches them, and {@link #writeDetails} stores it once.
     */
    public static long details(int flags, int innerTag, int etherType) {
        return (long) flags << 16 | (long) innerTag << 32 | (long) etherType << 48;
    }

    public static long withFlags(long details, int flags) {
        return details | (long) flags << 16;
    }

    public static long withTtl(long details, int ttl) {
        return details | (long) ttl << 8;
    }

    public static long withTcpFlags(long details, int tcpFlags) {
        return details | tcpFlags;
    }

    public static int tcpFlags(long details) {
        return (int) details & 0xFF;
    }

    public static int flags(long details) {
        return (int) (details >>> 16) & 0xFF;
    }

    public static int ttl(MemorySegment descriptors, long keyBase) {
        return descriptors.get(BYTE, keyBase + TTL) & 0xFF;
    }

    public static int flags(MemorySegment descriptors, long keyBase) {
        return flags(details(descriptors, keyBase));
    }

    /**
     * Writes bytes 48..63 of the key in two stores: the {@link #details} word, then the source MAC, which
     * {@code macs} holds in its bytes 2..7, little-endian (as the frame's bytes 4..11 read little-endian: the
     * destination MAC's last two, then the source MAC).
     */
    public static void writeDetails(MemorySegment descriptors, long keyBase, long details, long macs) {
        descriptors.set(DETAILS, keyBase + TCP_FLAGS, details);
        descriptors.set(DETAILS, keyBase + SRC_MAC - 2, macs & ~0xFFFFL);
    }

    /** The source MAC (the destination MAC is in word {@link #L2}). */
    public static long srcMac(MemorySegment descriptors, long keyBase) {
        long mac = 0;
        for (int i = 0; i < 6; i++) {
            mac = (mac << 8) | (descriptors.get(BYTE, keyBase + SRC_MAC + i) & 0xFF);
        }
        return mac;
    }

    /**
     * Mixes the key words into the hash the flow cache buckets by (never 0, which marks an empty slot). Each step
     * of the chain is a bijection of its word, so keys that differ in one word never meet before the finalizer;
     * the finalizer then carries every key bit into the low bits the cache indexes with, which products alone
     * never do (they carry bits only upward: a source port, bits 48..63 of {@link #L4}, would reach only the top).
     */
    public static int hash(long w0, long w1, long w2, long w3, long w4, long w5) {
        long h = w0 * 0x9E3779B97F4A7C15L ^ w1;
        h = h * 0xBF58476D1CE4E5B9L ^ w2;
        h = h * 0x94D049BB133111EBL ^ w3;
        h = h * 0x9E3779B97F4A7C15L ^ w4;
        h = h * 0xBF58476D1CE4E5B9L ^ w5;
        int hash = (int) mix(h);
        return hash == 0 ? 1 : hash;
    }

    /**
     * murmur3's 64-bit finalizer (fmix64): a bijection in which every input bit changes each output bit with
     * probability about one half, so any slice of the result can index a table.
     */
    public static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ h >>> 33;
    }

    /** Human-readable key for top-flows and logs (control path only). */
    public static String describe(long w0, long w1, long w2, long w3, long w4, long w5) {
        int version = ipVersion(w4);
        String proto = switch (proto(w4)) {
            case PROTO_TCP -> "tcp";
            case PROTO_UDP -> "udp";
            case PROTO_ICMP -> "icmp";
            case PROTO_ICMPV6 -> "icmp6";
            default -> "proto" + proto(w4);
        };
        String vlan = outerTag(w5) == 0 ? "" : " vlan " + (outerTag(w5) & 0xFFF);
        String mac = " to " + io.edp.engine.slowpath.MacAddress.format(dstMac(w5));
        return "port " + inPort(w4) + vlan + mac + " " + proto + " " + address(version, w0, w1) + ":" + srcPort(w4)
                + " > " + address(version, w2, w3) + ":" + dstPort(w4);
    }

    private static String address(int version, long hi, long lo) {
        if (version == 4) {
            int a = (int) (hi >>> 32);
            return (a >>> 24) + "." + ((a >>> 16) & 0xFF) + "." + ((a >>> 8) & 0xFF) + "." + (a & 0xFF);
        }
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < 8; i++) {
            long word = i < 4 ? hi : lo;
            int group = (int) (word >>> (48 - 16 * (i % 4))) & 0xFFFF;
            s.append(Integer.toHexString(group)).append(i < 7 ? ":" : "]");
        }
        return s.toString();
    }
}
