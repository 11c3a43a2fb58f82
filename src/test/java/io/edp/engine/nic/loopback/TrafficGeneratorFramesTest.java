package io.edp.engine.nic.loopback;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.packet.FrameParser;
import io.edp.engine.slowpath.Cidr;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Every frame the generator sends is its flow's, as the profile defines it: the generator keeps what it derives
 * from a flow as counters that step with it, and they must give what the definitions (divisions) give, through
 * the wraps of the port block, the sources, the destinations and the flows.
 */
class TrafficGeneratorFramesTest {

    @Test
    void everyFrameCarriesTheAddressesPortsProtocolAndFamilyItsFlowIsDefinedWith() {
        TrafficProfile profile = TrafficProfile.udp().withFlows(60_003).withMix(40, 40, 30).withFrameBytes(128)
                .withAddresses("10.0.0.0", "10.128.0.0", 7).withSources(3).withFirstFlowId(5);
        long frames = 2L * profile.flows() + 11;
        int sourceBase = (int) (Cidr.parse(profile.sourceBase(), "sourceBase").hi() >>> 32);
        int destinationBase = (int) (Cidr.parse(profile.destinationBase(), "destinationBase").hi() >>> 32);
        try (MbufPool pool = new MbufPool(4096, Mbuf.DESCRIPTOR_BYTES)) {
            MbufCache cache = new MbufCache(pool);
            LoopbackNic nic = new LoopbackNic(0, "frames", pool, 1, 1, 512, null, 0);
            nic.startTraffic(profile.withPackets(frames));
            Mbuf m = new Mbuf(pool);
            FrameParser parser = new FrameParser();
            int[] burst = new int[NicDriver.MAX_BURST];
            long received = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (received < frames && System.nanoTime() < deadline) {
                int n = nic.rxBurst(0, cache, burst, burst.length);
                for (int i = 0; i < n; i++) {
                    m.wrap(burst[i]);
                    assertThat(parser.parse(m)).isEqualTo(FrameParser.PARSED);
                    long trailer = m.dataAddress() + m.dataLength() - TrafficGenerator.TRAILER_BYTES;
                    int flow = m.data().get(ValueLayout.JAVA_INT_UNALIGNED, trailer) - profile.firstFlowId();
                    assertThat(key(m)).as("flow %d", flow)
                            .containsExactly(expected(profile, flow, sourceBase, destinationBase));
                    cache.free(burst[i]);
                }
                received += n;
            }
            assertThat(received).isEqualTo(frames);
            nic.close();
        }
    }

    private static long[] key(Mbuf m) {
        MemorySegment d = m.descriptors();
        long k = m.flowKeyAddress();
        long l4 = FlowKey.word(d, k, FlowKey.L4);
        return new long[] {FlowKey.word(d, k, FlowKey.SRC_HI), FlowKey.word(d, k, FlowKey.SRC_LO),
                FlowKey.word(d, k, FlowKey.DST_HI), FlowKey.word(d, k, FlowKey.DST_LO), FlowKey.srcPort(l4),
                FlowKey.dstPort(l4), FlowKey.proto(l4), FlowKey.ipVersion(l4)};
    }

    /** The key words {@link #key} reads, as the profile defines flow {@code flow}. */
    private static long[] expected(TrafficProfile p, int flow, int sourceBase, int destinationBase) {
        int proto = TrafficGenerator.protocol(p, flow);
        boolean v6 = TrafficGenerator.ipv6(p, flow);
        int destination = flow % p.destinations();
        int source = p.sources() == 0 ? flow : flow % p.sources();
        long srcPort = proto == FlowKey.PROTO_ICMP ? (v6 ? 128 : 8) : 1024 + flow % 60_000;
        long dstPort = proto == FlowKey.PROTO_ICMP ? 0 : (proto == FlowKey.PROTO_UDP ? 5001 : 80) + flow / 60_000;
        int ipProto = proto == FlowKey.PROTO_ICMP && v6 ? FlowKey.PROTO_ICMPV6 : proto;
        return v6
                ? new long[] {0xFD00L << 48, source, 0xFD01L << 48, ((long) destination << 16) | 1, srcPort, dstPort,
                        ipProto, 6}
                : new long[] {(long) (sourceBase + source) << 32, 0,
                        (long) (destinationBase + destination * 256 + 1) << 32, 0, srcPort, dstPort, ipProto, 4};
    }
}
