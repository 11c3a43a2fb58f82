package io.edp.engine.packet;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FrameParserTest {

    private static final long DST = 0x020000000001L;
    private static final long SRC = 0x0200000000AAL;
    private static final int A = 0x0A000001;
    private static final int B = 0x0A800101;

    private final MbufPool pool = new MbufPool(16, Mbuf.DESCRIPTOR_BYTES);
    private final MbufCache cache = new MbufCache(pool);
    private final Mbuf m = new Mbuf(pool);
    private final FrameParser parser = new FrameParser();

    @AfterEach
    void close() {
        pool.close();
    }

    private int parse(Frames frame, int port) {
        byte[] bytes = frame.bytes();
        m.wrap(cache.allocate()).copyFrom(MemorySegment.ofArray(bytes), 0, bytes.length).port(port);
        return parser.parse(m);
    }

    private long word(int offset) {
        return FlowKey.word(m.descriptors(), m.flowKeyAddress(), offset);
    }

    @Test
    void udpOverIpv4GivesTheExactFiveTupleAndIngressPort() {
        assertThat(parse(Frames.ethernet(DST, SRC).ipv4(17, A, B, 64, 0, 8 + 10).udp(1234, 5001, 10), 7))
                .isEqualTo(FrameParser.PARSED);
        assertThat(word(FlowKey.SRC_HI)).isEqualTo((long) A << 32);
        assertThat(word(FlowKey.DST_HI)).isEqualTo((long) B << 32);
        long l4 = word(FlowKey.L4);
        assertThat(FlowKey.srcPort(l4)).isEqualTo(1234);
        assertThat(FlowKey.dstPort(l4)).isEqualTo(5001);
        assertThat(FlowKey.proto(l4)).isEqualTo(17);
        assertThat(FlowKey.ipVersion(l4)).isEqualTo(4);
        assertThat(FlowKey.inPort(l4)).isEqualTo(7);
        assertThat(FlowKey.dstMac(word(FlowKey.L2))).isEqualTo(DST);
        assertThat(FlowKey.srcMac(m.descriptors(), m.flowKeyAddress())).isEqualTo(SRC);
        assertThat(m.l3Offset()).isEqualTo(14);
        assertThat(m.l4Offset()).isEqualTo(34);
        assertThat(m.ipLength()).as("the IPv4 total length, for the egress MTU check").isEqualTo(20 + 8 + 10);
        assertThat(m.flowHash()).isNotZero();
    }

    /** The parser takes the IPv4 header in three loads and the frame's start, port and length in one. */
    @Test
    void everyHeaderFieldIsReadFromItsOwnBytes() {
        long source = 0x0A1B2C3D4E5FL;
        Frames frame = Frames.ethernet(DST, source).u16(FlowKey.ETHERTYPE_IPV4)
                .u8(0x45).u8(0xB8).u16(20 + 8 + 4).u16(0xBEEF).u16(0x2000).u8(0x7A).u8(17).u16(0x1234).u32(A).u32(B)
                .udp(4321, 53, 4);
        assertThat(parse(frame, 0x1234)).isEqualTo(FrameParser.PARSED);
        long l4 = word(FlowKey.L4);
        assertThat(FlowKey.proto(l4)).isEqualTo(17);
        assertThat(FlowKey.srcPort(l4)).isEqualTo(4321);
        assertThat(FlowKey.dstPort(l4)).isEqualTo(53);
        assertThat(FlowKey.inPort(l4)).isEqualTo(0x1234);
        assertThat(word(FlowKey.SRC_HI)).isEqualTo((long) A << 32);
        assertThat(word(FlowKey.DST_HI)).isEqualTo((long) B << 32);
        assertThat(FlowKey.ttl(m.descriptors(), m.flowKeyAddress())).isEqualTo(0x7A);
        assertThat(FlowKey.etherType(m.descriptors(), m.flowKeyAddress())).isEqualTo(FlowKey.ETHERTYPE_IPV4);
        assertThat(FlowKey.srcMac(m.descriptors(), m.flowKeyAddress())).isEqualTo(source);
        assertThat(FlowKey.flags(m.descriptors(), m.flowKeyAddress())).as("a first fragment: more follow")
                .isEqualTo(FlowKey.FLAG_SLOW_PATH_ONLY | FlowKey.FLAG_FRAGMENT);
        assertThat(m.fragmentId()).isEqualTo(0xBEEF);
        assertThat(m.ipLength()).isEqualTo(32);
        assertThat(m.l4Offset()).isEqualTo(34);
    }

    @Test
    void ipv4OptionsMoveTheTransportHeader() {
        assertThat(parse(Frames.ethernet(DST, SRC).ipv4(6, A, B, 64, 3, 20).tcp(40000, 80, FlowKey.TCP_SYN, 0), 0))
                .isEqualTo(FrameParser.PARSED);
        assertThat(m.l4Offset()).isEqualTo(14 + 32);
        assertThat(FlowKey.dstPort(word(FlowKey.L4))).isEqualTo(80);
        assertThat(FlowKey.tcpFlags(m.descriptors(), m.flowKeyAddress())).isEqualTo(FlowKey.TCP_SYN);
    }

    @Test
    void singleAndDoubleVlanTagsAreKeyed() {
        parse(Frames.ethernet(DST, SRC).vlan(0x8100, 10).ipv4(17, A, B, 64, 0, 8).udp(1, 2, 0), 0);
        assertThat(FlowKey.outerTag(word(FlowKey.L2))).isEqualTo(FlowKey.VLAN_TAGGED | 10);
        assertThat(m.l3Offset()).isEqualTo(18);

        parse(Frames.ethernet(DST, SRC).vlan(0x88A8, 100).vlan(0x8100, 20).ipv4(17, A, B, 64, 0, 8).udp(1, 2, 0), 0);
        assertThat(FlowKey.outerTag(word(FlowKey.L2))).isEqualTo(FlowKey.VLAN_TAGGED | 100);
        assertThat(FlowKey.innerTag(m.descriptors(), m.flowKeyAddress())).isEqualTo(FlowKey.VLAN_TAGGED | 20);
        assertThat(FlowKey.etherType(m.descriptors(), m.flowKeyAddress())).isEqualTo(FlowKey.ETHERTYPE_IPV4);
        assertThat(FlowKey.flags(m.descriptors(), m.flowKeyAddress()) & FlowKey.FLAG_SLOW_PATH_ONLY)
                .as("QinQ always takes the IOChain").isNotZero();
        assertThat(m.l3Offset()).isEqualTo(22);
    }

    @Test
    void theKeysDetailsAreTheFramesOwnWhateverTheBufferHeldBefore() {
        int index = cache.allocate();
        byte[] qinqSyn = Frames.ethernet(DST, SRC).vlan(0x88A8, 10).vlan(0x8100, 20).ipv4(6, A, B, 7, 0, 20)
                .tcp(1, 2, FlowKey.TCP_SYN | FlowKey.TCP_ACK, 0).bytes();
        m.wrap(index).copyFrom(MemorySegment.ofArray(qinqSyn), 0, qinqSyn.length);
        assertThat(parser.parse(m)).isEqualTo(FrameParser.PARSED);
        long details = FlowKey.details(m.descriptors(), m.flowKeyAddress());
        assertThat(FlowKey.tcpFlags(details)).isEqualTo(FlowKey.TCP_SYN | FlowKey.TCP_ACK);
        assertThat(FlowKey.flags(details)).isEqualTo(FlowKey.FLAG_SLOW_PATH_ONLY);
        assertThat(FlowKey.ttl(m.descriptors(), m.flowKeyAddress())).isEqualTo(7);
        assertThat(FlowKey.innerTag(m.descriptors(), m.flowKeyAddress())).isEqualTo(FlowKey.VLAN_TAGGED | 20);
        assertThat(m.l3Offset()).isEqualTo(22);
        assertThat(m.l4Offset()).isEqualTo(42);

        byte[] udp = Frames.ethernet(DST, SRC).ipv4(17, A, B, 64, 0, 8).udp(1, 2, 0).bytes();
        m.wrap(index).copyFrom(MemorySegment.ofArray(udp), 0, udp.length);
        assertThat(parser.parse(m)).isEqualTo(FrameParser.PARSED);
        assertThat(FlowKey.details(m.descriptors(), m.flowKeyAddress()))
                .as("no flag, tag or TCP flag of the frame before; this frame's TTL and etherType")
                .isEqualTo(FlowKey.withTtl(FlowKey.details(0, 0, FlowKey.ETHERTYPE_IPV4), 64));
        assertThat(FlowKey.srcMac(m.descriptors(), m.flowKeyAddress())).isEqualTo(SRC);
        assertThat(m.l3Offset()).isEqualTo(14);
        assertThat(m.l4Offset()).isEqualTo(34);
    }

    @Test
    void threeVlanTagsAreRejected() {
        assertThat(parse(Frames.ethernet(DST, SRC).vlan(0x88A8, 1).vlan(0x8100, 2).vlan(0x8100, 3)
                .ipv4(17, A, B, 64, 0, 8).udp(1, 2, 0), 0)).isEqualTo(DropReason.TOO_MANY_VLAN_TAGS.ordinal());
    }

    @Test
    void arpIsKeyedByProtocolAddressesAndNeverCached() {
        Frames arp = Frames.ethernet(0xFFFFFFFFFFFFL, SRC).u16(FlowKey.ETHERTYPE_ARP)
                .u16(1).u16(0x0800).u8(6).u8(4).u16(1).mac(SRC).u32(A).mac(0).u32(B);
        assertThat(parse(arp, 0)).isEqualTo(FrameParser.PARSED);
        assertThat(word(FlowKey.SRC_HI)).isEqualTo((long) A << 32);
        assertThat(word(FlowKey.DST_HI)).isEqualTo((long) B << 32);
        assertThat(FlowKey.flags(m.descriptors(), m.flowKeyAddress()) & FlowKey.FLAG_SLOW_PATH_ONLY).isNotZero();
        assertThat(m.ipLength()).as("no IP packet: never over an MTU").isZero();
    }

    @Test
    void ipv6ExtensionHeadersAreSkippedUpToTheLimit() {
        Frames twoExtensions = Frames.ethernet(DST, SRC).ipv6(0, 0xFD00L << 48, 1, 0xFD01L << 48, 2, 8 + 8 + 8)
                .u8(60).u8(0).zeros(6) // hop-by-hop → destination options
                .u8(17).u8(0).zeros(6) // destination options → UDP
                .udp(53, 5353, 0);
        assertThat(parse(twoExtensions, 0)).isEqualTo(FrameParser.PARSED);
        long l4 = word(FlowKey.L4);
        assertThat(FlowKey.proto(l4)).isEqualTo(17);
        assertThat(FlowKey.ipVersion(l4)).isEqualTo(6);
        assertThat(FlowKey.dstPort(l4)).isEqualTo(5353);
        assertThat(word(FlowKey.SRC_LO)).isEqualTo(1);
        assertThat(word(FlowKey.DST_LO)).isEqualTo(2);
        assertThat(m.ipLength()).as("40 + the payload length").isEqualTo(40 + 8 + 8 + 8);

        Frames tooMany = Frames.ethernet(DST, SRC).ipv6(60, 0, 1, 0, 2, 5 * 8 + 8);
        for (int i = 0; i < 5; i++) {
            tooMany.u8(i < 4 ? 60 : 17).u8(0).zeros(6);
        }
        assertThat(parse(tooMany.udp(1, 2, 0), 0)).isEqualTo(DropReason.IPV6_EXTENSION_LIMIT.ordinal());
    }

    @Test
    void icmpAndIcmpv6UseTypeAndCodeAsPorts() {
        parse(Frames.ethernet(DST, SRC).ipv4(1, A, B, 64, 0, 8).icmp(8, 0), 0);
        assertThat(FlowKey.srcPort(word(FlowKey.L4))).isEqualTo(8);
        parse(Frames.ethernet(DST, SRC).ipv6(58, 0, 1, 0, 2, 8).icmp(128, 0), 0);
        assertThat(FlowKey.proto(word(FlowKey.L4))).isEqualTo(58);
        assertThat(FlowKey.srcPort(word(FlowKey.L4))).isEqualTo(128);
    }

    @Test
    void laterFragmentsAreKeyedWithoutPorts() {
        Frames fragment = Frames.ethernet(DST, SRC).u16(FlowKey.ETHERTYPE_IPV4)
                .u8(0x45).u8(0).u16(28).u16(0).u16(0x0010).u8(64).u8(17).u16(0).u32(A).u32(B).zeros(8);
        assertThat(parse(fragment, 0)).isEqualTo(FrameParser.PARSED);
        assertThat(FlowKey.srcPort(word(FlowKey.L4))).isZero();
        assertThat(FlowKey.proto(word(FlowKey.L4))).isEqualTo(17);
    }

    @Test
    void malformedFramesNameTheirReason() {
        assertThat(parse(Frames.ethernet(DST, SRC).u8(8), 0))
                .isEqualTo(DropReason.TRUNCATED_ETHERNET.ordinal());
        assertThat(parse(Frames.ethernet(DST, SRC).u16(0x8100).u8(0), 0))
                .isEqualTo(DropReason.TRUNCATED_VLAN.ordinal());
        assertThat(parse(Frames.ethernet(DST, SRC).u16(0x88CC).zeros(40), 0))
                .isEqualTo(DropReason.UNSUPPORTED_ETHERTYPE.ordinal());
        assertThat(parse(Frames.ethernet(DST, SRC).u16(0x0806).zeros(10), 0))
                .isEqualTo(DropReason.TRUNCATED_ARP.ordinal());
        assertThat(parse(Frames.ethernet(DST, SRC).u16(0x0800).zeros(10), 0))
                .isEqualTo(DropReason.TRUNCATED_IPV4.ordinal());
        assertThat(parse(Frames.ethernet(DST, SRC).u16(0x0800).u8(0x44).zeros(19), 0))
                .isEqualTo(DropReason.BAD_IPV4_HEADER.ordinal());
        assertThat(parse(Frames.ethernet(DST, SRC).ipv4(17, A, B, 64, 0, 100).udp(1, 2, 0), 0))
                .isEqualTo(DropReason.BAD_IPV4_LENGTH.ordinal());
        assertThat(parse(Frames.ethernet(DST, SRC).ipv4(17, A, B, 64, 0, 4).u32(0), 0))
                .isEqualTo(DropReason.TRUNCATED_L4.ordinal());
        assertThat(parse(Frames.ethernet(DST, SRC).ipv4(6, A, B, 64, 0, 20).u16(1).u16(2).u32(0).u32(0).u8(0x20)
                .zeros(7), 0)).isEqualTo(DropReason.BAD_TCP_HEADER.ordinal());
        assertThat(parse(Frames.ethernet(DST, SRC).u16(0x86DD).zeros(20), 0))
                .isEqualTo(DropReason.TRUNCATED_IPV6.ordinal());
        assertThat(parse(Frames.ethernet(DST, SRC).u16(0x86DD).u8(0x40).zeros(39), 0))
                .isEqualTo(DropReason.BAD_IPV6_HEADER.ordinal());
        assertThat(parse(Frames.ethernet(DST, SRC).ipv6(17, 0, 1, 0, 2, 200).udp(1, 2, 0), 0))
                .isEqualTo(DropReason.BAD_IPV6_LENGTH.ordinal());
    }

    @Test
    void theDestinationMacIsPartOfTheKey() {
        parse(Frames.ethernet(DST, SRC).ipv4(17, A, B, 64, 0, 8).udp(1, 2, 0), 0);
        int toVm = m.flowHash();
        parse(Frames.ethernet(0x02ED00000001L, SRC).ipv4(17, A, B, 64, 0, 8).udp(1, 2, 0), 0);
        assertThat(m.flowHash()).isNotEqualTo(toVm);
    }

    @Test
    void twoDirectionsOfAFlowHaveDifferentKeys() {
        parse(Frames.ethernet(DST, SRC).ipv4(17, A, B, 64, 0, 8).udp(1, 2, 0), 0);
        int forward = m.flowHash();
        parse(Frames.ethernet(DST, SRC).ipv4(17, B, A, 64, 0, 8).udp(2, 1, 0), 0);
        assertThat(m.flowHash()).isNotEqualTo(forward);
    }
}
