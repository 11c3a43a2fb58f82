package io.edp.engine.packet;

import static io.edp.engine.packet.NetworkOrder.U16;
import static io.edp.engine.packet.NetworkOrder.U32;
import static io.edp.engine.packet.NetworkOrder.U64;

import io.edp.engine.mbuf.Mbuf;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Parses an Ethernet frame into the exact {@link FlowKey} in the mbuf's flow-key line: Ethernet, 802.1Q and
 * QinQ, ARP, IPv4 with options, IPv6 with up to {@link #MAX_EXTENSION_HEADERS} extension headers, TCP, UDP,
 * ICMP, ICMPv6. IP fragments are marked as such in the key (with their datagram's identification in the mbuf): a
 * later fragment has no transport header, so the IOChain decides it by its first fragment. Every bound is
 * checked against the frame length; a malformed frame yields its
 * {@link DropReason} instead of an exception. Checksums are not verified (NIC offload territory).
 * Stateless: one instance may serve every worker.
 */
public final class FrameParser {

    /** {@link #parse} result for a frame whose key was written. */
    public static final int PARSED = -1;
    public static final int MAX_EXTENSION_HEADERS = 4;

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

    private static final int ETHERNET_HEADER = 14;
    private static final int VLAN_TAG = 4;
    private static final int ARP_IPV4_BYTES = 28;
    private static final int IPV6_HEADER = 40;

    /**
     * Parses the frame of {@code m} (received on {@code m.port()}); returns {@link #PARSED} or the ordinal of
     * the {@link DropReason} that rejects it.
     */
    public int parse(Mbuf m) {
        MemorySegment data = m.data();
        long first = m.firstWord(); // the frame's start, its port and its length in one load
        long frame = m.dataAddress(first);
        int length = Mbuf.dataLength(first);
        if (length < ETHERNET_HEADER) {
            return DropReason.TRUNCATED_ETHERNET.ordinal();
        }
        long sourceAndType = data.get(U64, frame + 6); // the source MAC and the etherType
        int at = 12;
        int etherType = (int) sourceAndType & 0xFFFF;
        int outerTag = 0;
        int innerTag = 0;
        int tags = 0;
        while (etherType == FlowKey.ETHERTYPE_VLAN || etherType == FlowKey.ETHERTYPE_QINQ) {
            if (++tags > 2) {
                return DropReason.TOO_MANY_VLAN_TAGS.ordinal();
            }
            if (length < at + 2 + VLAN_TAG) {
                return DropReason.TRUNCATED_VLAN.ordinal();
            }
            int tag = FlowKey.VLAN_TAGGED | (u16(data, frame + at + 2) & 0xFFF);
            if (tags == 1) {
                outerTag = tag;
            } else {
                innerTag = tag;
            }
            at += VLAN_TAG;
            etherType = u16(data, frame + at);
        }
        int l3 = at + 2;
        MemorySegment d = m.descriptors();
        long key = m.flowKeyAddress();
        long dstMac = data.get(U64, frame) >>> 16;
        // QinQ frames and broadcast / multicast (flooded) frames always take the slow path
        boolean group = (dstMac & FlowKey.GROUP_MAC) != 0;
        // the key's details word is gathered as the parse goes and stored once, with the key (finish)
        long details = FlowKey.details(innerTag == 0 && !group ? 0 : FlowKey.FLAG_SLOW_PATH_ONLY, innerTag,
                etherType);
        long macs = Long.reverseBytes(sourceAndType) << 16; // the source MAC as writeDetails stores it
        long l2 = FlowKey.l2Word(dstMac, outerTag);
        int inPort = Mbuf.port(first);
        return switch (etherType) {
            case FlowKey.ETHERTYPE_IPV4 -> ipv4(m, data, frame, length, l3, d, key, l2, inPort, details, macs);
            case FlowKey.ETHERTYPE_IPV6 -> ipv6(m, data, frame, length, l3, d, key, l2, inPort, details, macs);
            case FlowKey.ETHERTYPE_ARP -> arp(m, data, frame, length, l3, d, key, l2, inPort, details, macs);
            default -> DropReason.UNSUPPORTED_ETHERTYPE.ordinal();
        };
    }

    private static int arp(Mbuf m, MemorySegment data, long frame, int length, int l3, MemorySegment d, long key,
            long l2, int inPort, long details, long macs) {
        if (length < l3 + ARP_IPV4_BYTES) {
            return DropReason.TRUNCATED_ARP.ordinal();
        }
        // OVS keys ARP by operation and protocol addresses; it never enters the flow cache here.
        long spa = (long) u32(data, frame + l3 + 14) << 32;
        long tpa = (long) u32(data, frame + l3 + 24) << 32;
        int operation = u16(data, frame + l3 + 6);
        m.headerOffsets(l3, 0);
        m.ipLength(0);
        return finish(m, d, key, spa, 0, tpa, 0, FlowKey.l4Word(0, 0, operation & 0xFF, 0, inPort), l2,
                FlowKey.withFlags(details, FlowKey.FLAG_SLOW_PATH_ONLY), macs); // ARP never enters the cache
    }

    private static int ipv4(Mbuf m, MemorySegment data, long frame, int length, int l3, MemorySegment d, long key,
            long l2, int inPort, long details, long macs) {
        if (length < l3 + 20) {
            return DropReason.TRUNCATED_IPV4.ordinal();
        }
        // the fixed header in three loads, not one a field: each access costs the JIT's inlining budget ~850 nodes
        long head = data.get(U64, frame + l3); // version and IHL, TOS, total length, identification, flags, offset
        long middle = data.get(U64, frame + l3 + 8); // TTL, protocol, checksum, source address
        int versionIhl = (int) (head >>> 56);
        int headerBytes = (versionIhl & 0xF) * 4;
        if ((versionIhl >>> 4) != 4 || headerBytes < 20) {
            return DropReason.BAD_IPV4_HEADER.ordinal();
        }
        int totalLength = (int) (head >>> 32) & 0xFFFF;
        if (totalLength < headerBytes || l3 + totalLength > length) {
            return DropReason.BAD_IPV4_LENGTH.ordinal();
        }
        m.ipLength(totalLength);
        int proto = (int) (middle >>> 48) & 0xFF;
        long src = middle << 32;
        long dst = (long) u32(data, frame + l3 + 16) << 32;
        int l4 = l3 + headerBytes;
        int fragment = (int) head & 0xFFFF;
        boolean laterFragment = (fragment & 0x1FFF) != 0;
        long ipDetails = FlowKey.withTtl(details, (int) (middle >>> 56));
        if ((fragment & 0x3FFF) != 0) { // more fragments, or an offset
            ipDetails = fragment(m, ipDetails, laterFragment, (int) (head >>> 16) & 0xFFFF);
        }
        return transport(m, data, frame, l3, l3 + totalLength, l4, proto, !laterFragment, d, key, src, 0, dst, 0, 4,
                l2, inPort, ipDetails, macs);
    }

    private static int ipv6(Mbuf m, MemorySegment data, long frame, int length, int l3, MemorySegment d, long key,
            long l2, int inPort, long details, long macs) {
        if (length < l3 + IPV6_HEADER) {
            return DropReason.TRUNCATED_IPV6.ordinal();
        }
        if ((u8(data, frame + l3) >>> 4) != 6) {
            return DropReason.BAD_IPV6_HEADER.ordinal();
        }
        int end = l3 + IPV6_HEADER + u16(data, frame + l3 + 4);
        if (end > length) {
            return DropReason.BAD_IPV6_LENGTH.ordinal();
        }
        m.ipLength(end - l3);
        long ipDetails = FlowKey.withTtl(details, u8(data, frame + l3 + 7));
        int next = u8(data, frame + l3 + 6);
        int at = l3 + IPV6_HEADER;
        boolean hasL4 = true;
        int extensions = 0;
        while (isExtension(next)) {
            if (++extensions > MAX_EXTENSION_HEADERS) {
                return DropReason.IPV6_EXTENSION_LIMIT.ordinal();
            }
            if (end < at + 8) {
                return DropReason.BAD_IPV6_LENGTH.ordinal();
            }
            int following = u8(data, frame + at);
            if (next == 44) {
                int offsetAndMore = u16(data, frame + at + 2);
                boolean laterFragment = (offsetAndMore & 0xFFF8) != 0;
                if ((offsetAndMore & 0xFFF9) != 0) { // not an atomic fragment (RFC 6946): offset 0 without M
                    ipDetails = fragment(m, ipDetails, laterFragment, u32(data, frame + at + 4));
                }
                at += 8;
                if (laterFragment) {
                    next = following;
                    hasL4 = false;
                    break; // the rest is payload, whatever its next-header field says
                }
            } else if (next == 51) {
                at += (u8(data, frame + at + 1) + 2) * 4;
            } else {
                at += (u8(data, frame + at + 1) + 1) * 8;
            }
            next = following;
        }
        if (at > end) {
            return DropReason.BAD_IPV6_LENGTH.ordinal();
        }
        return transport(m, data, frame, l3, end, at, next, hasL4, d, key,
                data.get(U64, frame + l3 + 8), data.get(U64, frame + l3 + 16),
                data.get(U64, frame + l3 + 24), data.get(U64, frame + l3 + 32), 6, l2, inPort, ipDetails, macs);
    }

    /** A fragment: its datagram's identification goes into the mbuf, its flags into the key's details. */
    private static long fragment(Mbuf m, long details, boolean later, int id) {
        m.fragmentId(id);
        return FlowKey.withFlags(details, FlowKey.FLAG_SLOW_PATH_ONLY | FlowKey.FLAG_FRAGMENT
                | (later ? FlowKey.FLAG_LATER_FRAGMENT : 0));
    }

    private static boolean isExtension(int next) {
        return next == 0 || next == 43 || next == 44 || next == 51 || next == 60;
    }

    private static int transport(Mbuf m, MemorySegment data, long frame, int l3, int end, int l4, int proto,
            boolean hasL4, MemorySegment d, long key, long srcHi, long srcLo, long dstHi, long dstLo, int version,
            long l2, int inPort, long details, long macs) {
        m.headerOffsets(l3, l4);
        int ports = 0; // source port in the high half, destination port in the low one
        long keyDetails = details;
        if (hasL4) {
            // the transport header's first four bytes, read once: TCP's and UDP's ports, ICMP's type and code
            int first = end < l4 + 4 ? 0 : u32(data, frame + l4);
            switch (proto) {
                case FlowKey.PROTO_TCP -> {
                    if (end < l4 + 20) {
                        return DropReason.TRUNCATED_L4.ordinal();
                    }
                    int offsetAndFlags = u16(data, frame + l4 + 12); // data offset, reserved bits, flags
                    int dataOffset = offsetAndFlags >>> 12;
                    if (dataOffset < 5 || l4 + dataOffset * 4 > end) {
                        return DropReason.BAD_TCP_HEADER.ordinal();
                    }
                    ports = first;
                    keyDetails = FlowKey.withTcpFlags(details, offsetAndFlags & 0xFF);
                }
                case FlowKey.PROTO_UDP -> {
                    if (end < l4 + 8) {
                        return DropReason.TRUNCATED_L4.ordinal();
                    }
                    ports = first;
                }
                case FlowKey.PROTO_ICMP, FlowKey.PROTO_ICMPV6 -> {
                    if (end < l4 + 4) {
                        return DropReason.TRUNCATED_L4.ordinal();
                    }
                    ports = (first >>> 24) << 16 | (first >>> 16) & 0xFF; // type, code
                }
                default -> {
                    // other protocols are keyed by addresses and protocol alone
                }
            }
        }
        return finish(m, d, key, srcHi, srcLo, dstHi, dstLo,
                FlowKey.l4Word(ports >>> 16, ports & 0xFFFF, proto, version, inPort), l2, keyDetails, macs);
    }

    /**
     * Writes the key, its details and its hash. The hash first: the key's stores are the last of the parser's ~18
     * segment accesses, past the point where C2 stops inlining this unit's own calls (engine.md, the pipeline), and
     * the JDK's access methods are inlined there anyway while {@link FlowKey#hash} would stay a call.
     */
    private static int finish(Mbuf m, MemorySegment d, long key, long srcHi, long srcLo, long dstHi, long dstLo,
            long l4, long l2, long details, long macs) {
        m.flowHash(FlowKey.hash(srcHi, srcLo, dstHi, dstLo, l4, l2));
        FlowKey.writeDetails(d, key, details, macs);
        d.set(LONG, key + FlowKey.SRC_HI, srcHi);
        d.set(LONG, key + FlowKey.SRC_LO, srcLo);
        d.set(LONG, key + FlowKey.DST_HI, dstHi);
        d.set(LONG, key + FlowKey.DST_LO, dstLo);
        d.set(LONG, key + FlowKey.L4, l4);
        d.set(LONG, key + FlowKey.L2, l2);
        return PARSED;
    }

    private static int u8(MemorySegment data, long at) {
        return data.get(BYTE, at) & 0xFF;
    }

    private static int u16(MemorySegment data, long at) {
        return data.get(U16, at) & 0xFFFF;
    }

    private static int u32(MemorySegment data, long at) {
        return data.get(U32, at);
    }
}
