package io.edp.engine.packet;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.slowpath.Action;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.slowpath.ForwardingTables;
import io.edp.engine.slowpath.ForwardingTables.SwitchPort;
import io.edp.engine.slowpath.SwitchingTable;
import io.edp.engine.slowpath.VlanOp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rewrite both paths share, against frames built independently: the TTL and the IPv4 checksum as a sender
 * would compute them from scratch (not incrementally), the MACs and tags where they belong, and the descriptor's
 * start, length and L3 offset following the frame.
 */
class FrameRewriterTest {

    private static final long DST = 0x020000000001L;
    private static final long SRC = 0x0200000000AAL;
    private static final long ROUTER = 0x02000000FFFEL;
    private static final long NEXT_HOP = 0x020000000B0BL;
    private static final int A = 0x0A000001;
    private static final int B = 0x0A800101;

    private final MbufPool pool = new MbufPool(16, Mbuf.DESCRIPTOR_BYTES);
    private final MbufCache cache = new MbufCache(pool);
    private final Mbuf m = new Mbuf(pool);

    @AfterEach
    void close() {
        pool.close();
    }

    @Test
    void aRoutedIpv4FrameOntoATrunkGetsTheNextHopsMacsATagAndItsTtlLessOneWithAValidChecksum() {
        receive(withChecksum(Frames.ethernet(DST, SRC).ipv4(17, A, B, 64, 0, 8 + 6).udp(1234, 53, 6), 14));
        int offset = m.dataOffset();
        int length = m.dataLength();

        int verdict = FrameRewriter.apply(m, action(VlanOp.PUSH, 0x2064, true, true));

        assertThat(verdict).isEqualTo(FrameRewriter.FORWARD);
        assertThat(frame()).isEqualTo(withChecksum(
                Frames.ethernet(NEXT_HOP, ROUTER).vlan(0x8100, 0x2064).ipv4(17, A, B, 63, 0, 8 + 6).udp(1234, 53, 6),
                18));
        assertThat(m.dataOffset()).isEqualTo(offset - 4);
        assertThat(m.dataLength()).isEqualTo(length + 4);
        assertThat(m.l3Offset()).isEqualTo(18);
        assertThat(m.port()).isEqualTo(3);
    }

    /** Decrementing the TTL adds 0x100 to the checksum: from 0xFF00 up, the sum carries around (RFC 1624). */
    @Test
    void aChecksumThatCarriesAroundStaysValid() {
        int source = A;
        while (checksum(Frames.ethernet(DST, SRC).ipv4(17, source, B, 64, 0, 8).udp(1, 2, 0), 14) < 0xFF00) {
            source++;
        }
        receive(withChecksum(Frames.ethernet(DST, SRC).ipv4(17, source, B, 64, 0, 8).udp(1, 2, 0), 14));
        assertThat(FrameRewriter.apply(m, action(VlanOp.NONE, 0, true, true))).isEqualTo(FrameRewriter.FORWARD);
        assertThat(frame()).isEqualTo(withChecksum(
                Frames.ethernet(NEXT_HOP, ROUTER).ipv4(17, source, B, 63, 0, 8).udp(1, 2, 0), 14));
    }

    @Test
    void aRoutedFrameWithoutATagKeepsItsLengthAndAnIpv6OneLosesAHop() {
        receive(withChecksum(Frames.ethernet(DST, SRC).ipv4(6, A, B, 2, 1, 20).tcp(40000, 80, 0x10, 0), 14));
        assertThat(FrameRewriter.apply(m, action(VlanOp.NONE, 0, true, true))).isEqualTo(FrameRewriter.FORWARD);
        assertThat(frame()).isEqualTo(withChecksum(
                Frames.ethernet(NEXT_HOP, ROUTER).ipv4(6, A, B, 1, 1, 20).tcp(40000, 80, 0x10, 0), 14));

        receive(Frames.ethernet(DST, SRC).ipv6(17, 0x20010DB8L << 32, 1, 0x20010DB8L << 32, 2, 8).udp(1, 2, 0)
                .bytes());
        assertThat(FrameRewriter.apply(m, action(VlanOp.NONE, 0, true, true))).isEqualTo(FrameRewriter.FORWARD);
        byte[] expected = Frames.ethernet(NEXT_HOP, ROUTER)
                .ipv6(17, 0x20010DB8L << 32, 1, 0x20010DB8L << 32, 2, 8).udp(1, 2, 0).bytes();
        expected[14 + 7] = 63;
        assertThat(frame()).isEqualTo(expected);
    }

    @Test
    void aSwitchedFramePushedOrPoppedKeepsItsMacsAndItsTtl() {
        byte[] untagged = Frames.ethernet(DST, SRC).ipv4(17, A, B, 9, 0, 8).udp(7, 8, 0).bytes();
        byte[] tagged = Frames.ethernet(DST, SRC).vlan(0x8100, 30).ipv4(17, A, B, 9, 0, 8).udp(7, 8, 0).bytes();

        receive(untagged);
        assertThat(FrameRewriter.apply(m, action(VlanOp.PUSH, 30, false, false))).isEqualTo(FrameRewriter.FORWARD);
        assertThat(frame()).isEqualTo(tagged);
        assertThat(m.l3Offset()).isEqualTo(18);

        receive(tagged);
        int offset = m.dataOffset();
        assertThat(FrameRewriter.apply(m, action(VlanOp.POP, 0, false, false))).isEqualTo(FrameRewriter.FORWARD);
        assertThat(frame()).isEqualTo(untagged);
        assertThat(m.dataOffset()).isEqualTo(offset + 4);
        assertThat(m.dataLength()).isEqualTo(untagged.length);
        assertThat(m.l3Offset()).isEqualTo(14);
        assertThat(m.port()).isEqualTo(3);
    }

    @Test
    void aFrameWhoseTtlWouldReachZeroIsDroppedUntouched() {
        byte[] last = withChecksum(Frames.ethernet(DST, SRC).ipv4(17, A, B, 1, 0, 8).udp(7, 8, 0), 14);
        receive(last);
        assertThat(FrameRewriter.apply(m, action(VlanOp.PUSH, 5, true, true)))
                .isEqualTo(DropReason.TTL_EXCEEDED.ordinal());
        assertThat(frame()).isEqualTo(last);
        assertThat(m.l3Offset()).isEqualTo(14);
    }

    @Test
    void theMtuCheckReadsTheIpLengthNotThePaddedFrames() {
        // 46 bytes of IP in a frame padded to 64: over an MTU of 40 though the frame's length says more
        receive(Frames.ethernet(DST, SRC).ipv4(17, A, B, 9, 0, 8 + 18).udp(7, 8, 18).zeros(4).bytes());
        ForwardingTables tables = new ForwardingTables(1, ROUTER, List.of(new SwitchPort(1, false, 10, false, 40)),
                new SwitchingTable(new long[0], new int[0], new int[0]), List.of(), List.of(),
                new ConnectionTable(1024), List.of());
        Action out = action(VlanOp.NONE, 0, true, true);
        assertThat(FrameRewriter.exceedsMtu(m, m.dataLength(), out, tables)).isTrue();

        receive(Frames.ethernet(DST, SRC).ipv4(17, A, B, 9, 0, 8 + 12).udp(7, 8, 12).zeros(10).bytes());
        assertThat(FrameRewriter.exceedsMtu(m, m.dataLength(), out, tables)).isFalse(); // 40 bytes of IP
    }

    private static Action action(VlanOp op, int vlan, boolean routed, boolean decrementTtl) {
        return new Action(1, op, vlan, routed, ROUTER, NEXT_HOP, decrementTtl, -1, 0);
    }

    /** The frame as built, with its IPv4 header's checksum (header at {@code l3}) computed from scratch. */
    private static byte[] withChecksum(Frames frame, int l3) {
        byte[] bytes = frame.bytes();
        int checksum = checksum(frame, l3);
        bytes[l3 + 10] = (byte) (checksum >> 8);
        bytes[l3 + 11] = (byte) checksum;
        return bytes;
    }

    /** The checksum the IPv4 header at {@code l3} of {@code frame} (its checksum field 0) should carry. */
    private static int checksum(Frames frame, int l3) {
        byte[] bytes = frame.bytes();
        int headerBytes = (bytes[l3] & 0xF) * 4;
        return InternetChecksum.finish(InternetChecksum.add(0, MemorySegment.ofArray(bytes), l3, headerBytes))
                & 0xFFFF;
    }

    /** Receives {@code frame} into a fresh buffer on port 3 and parses it. */
    private void receive(byte[] frame) {
        m.wrap(cache.allocate()).copyFrom(MemorySegment.ofArray(frame), 0, frame.length).port(3);
        assertThat(new FrameParser().parse(m)).isEqualTo(FrameParser.PARSED);
    }

    private byte[] frame() {
        return m.data().asSlice(m.dataAddress(), m.dataLength()).toArray(ValueLayout.JAVA_BYTE);
    }
}
