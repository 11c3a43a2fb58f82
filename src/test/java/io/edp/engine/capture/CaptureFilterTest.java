package io.edp.engine.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.Cidr;
import io.edp.engine.trace.PacketFields;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The capture filter reads the frame's own headers: VLAN tags, IPv4, IPv6 extension headers, fragments. */
class CaptureFilterTest {

    private static byte[] frame(List<Integer> vlans, String source, String destination, int protocol, int port) {
        return new PacketFields(0x020000000001L, 0x020000000002L, vlans, InetAddress.ofLiteral(source),
                InetAddress.ofLiteral(destination), protocol, port, 80, 0, 64, 90).frame();
    }

    private static boolean matches(CaptureFilter filter, byte[] frame) {
        return filter.compile().matches(MemorySegment.ofArray(frame), 0, frame.length);
    }

    private static CaptureFilter filter(String address, Integer port, int protocol) {
        return new CaptureFilter(address == null ? List.of() : List.of(Cidr.parse(address, "a")),
                port == null ? List.of() : List.of(port), protocol);
    }

    @Test
    void addressesPortsAndProtocolMatchEitherSideUnderAnyTagStack() {
        for (List<Integer> vlans : List.of(List.<Integer>of(), List.of(10), List.of(100, 10))) {
            byte[] udp = frame(vlans, "10.0.0.1", "192.0.2.9", FlowKey.PROTO_UDP, 5353);
            assertThat(matches(filter("192.0.2.0/24", null, CaptureFilter.ANY_PROTOCOL), udp)).isTrue();
            assertThat(matches(filter("10.0.0.1", 80, FlowKey.PROTO_UDP), udp)).as("destination port").isTrue();
            assertThat(matches(filter(null, 5353, CaptureFilter.ANY_PROTOCOL), udp)).as("source port").isTrue();
            assertThat(matches(filter("10.0.0.2", null, CaptureFilter.ANY_PROTOCOL), udp)).isFalse();
            assertThat(matches(filter(null, 53, CaptureFilter.ANY_PROTOCOL), udp)).isFalse();
            assertThat(matches(filter(null, null, FlowKey.PROTO_TCP), udp)).isFalse();
            assertThat(matches(filter("any", null, FlowKey.PROTO_UDP), udp)).isTrue();
        }
        byte[] v6 = frame(List.of(), "2001:db8::1", "2001:db8:1::5", FlowKey.PROTO_TCP, 443);
        assertThat(matches(filter("2001:db8:1::/48", 443, FlowKey.PROTO_TCP), v6)).isTrue();
        assertThat(matches(filter("10.0.0.1", null, CaptureFilter.ANY_PROTOCOL), v6)).as("other family").isFalse();
        byte[] icmp = frame(List.of(), "10.0.0.1", "10.0.0.2", FlowKey.PROTO_ICMP, 0);
        assertThat(matches(filter(null, 0, CaptureFilter.ANY_PROTOCOL), icmp)).as("ICMP has no ports").isFalse();
    }

    @Test
    void ipv6ExtensionHeadersAreSkippedAndLaterFragmentsHaveNoPorts() {
        byte[] plain = frame(List.of(), "2001:db8::1", "2001:db8::2", FlowKey.PROTO_UDP, 4000);
        // a hop-by-hop header (8 bytes) between the IPv6 header and UDP
        byte[] hopByHop = withExtension(plain, 0, new byte[] {17, 0, 1, 4, 0, 0, 0, 0});
        assertThat(matches(filter(null, 4000, FlowKey.PROTO_UDP), hopByHop)).isTrue();
        byte[] firstFragment = withExtension(plain, 44, new byte[] {17, 0, 0, 1, 0, 0, 0, 7});
        assertThat(matches(filter(null, 4000, FlowKey.PROTO_UDP), firstFragment)).isTrue();
        byte[] laterFragment = withExtension(plain, 44, new byte[] {17, 0, 0, 8, 0, 0, 0, 7});
        assertThat(matches(filter(null, 4000, FlowKey.PROTO_UDP), laterFragment)).isFalse();
        assertThat(matches(filter("2001:db8::2", null, FlowKey.PROTO_UDP), laterFragment)).isTrue();

        byte[] v4Later = frame(List.of(), "10.0.0.1", "10.0.0.2", FlowKey.PROTO_UDP, 4000);
        v4Later[14 + 6] = 0x00;
        v4Later[14 + 7] = 0x10; // fragment offset 16 (× 8 bytes)
        assertThat(matches(filter(null, 4000, CaptureFilter.ANY_PROTOCOL), v4Later)).isFalse();
        assertThat(matches(filter("10.0.0.2", null, FlowKey.PROTO_UDP), v4Later)).isTrue();
    }

    @Test
    void aFrameThatIsNotIpPassesOnlyTheEmptyFilter() {
        byte[] arp = new byte[60];
        arp[12] = 0x08;
        arp[13] = 0x06;
        assertThat(matches(CaptureFilter.ALL, arp)).isTrue();
        assertThat(matches(filter(null, null, FlowKey.PROTO_UDP), arp)).isFalse();
        assertThat(matches(filter(null, null, FlowKey.PROTO_UDP), new byte[20])).as("a runt").isFalse();
    }

    @Test
    void boundsAreChecked() {
        assertThatThrownBy(() -> new CaptureFilter(List.of(), List.of(70_000), -1)).hasMessageContaining("0..65535");
        assertThatThrownBy(() -> new CaptureFilter(List.of(), List.of(), 256)).hasMessageContaining("protocol");
    }

    /** {@code frame} (untagged IPv6) with an extension header of type {@code type} inserted before its payload. */
    private static byte[] withExtension(byte[] frame, int type, byte[] header) {
        byte[] out = new byte[frame.length + header.length];
        System.arraycopy(frame, 0, out, 0, 54);
        System.arraycopy(header, 0, out, 54, header.length);
        System.arraycopy(frame, 54, out, 54 + header.length, frame.length - 54);
        out[14 + 6] = (byte) type;
        int payload = ((out[18] & 0xFF) << 8 | out[19] & 0xFF) + header.length;
        out[18] = (byte) (payload >> 8);
        out[19] = (byte) payload;
        return out;
    }
}
