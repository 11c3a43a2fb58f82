package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.TestFrames;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.Frames;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.time.ManualClock;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broadcast and multicast are flooded within their segment as a vSwitch does: from a VM port to the VLAN's other
 * VM ports (untagged) and the default uplink (tagged), from an uplink to the VLAN's VM ports only; never to the
 * port they came from, another VLAN, or (from an uplink) another uplink. Unknown unicast from a VM still goes to
 * the uplink alone. Capture ports: 1 = vm-a (VLAN 10, replays A's frames), 2 = uplink0 (replays the uplink's
 * frames), 3 = vm-b (VLAN 10), 4 = vm-c (VLAN 20), 5 = uplink1. LEGACY and EDP_STANDARD send the same bytes.
 */
class FloodingTest {

    private static final long A = 0x02_00_00_00_00_0AL;
    private static final long BROADCAST = 0xFFFF_FFFF_FFFFL;
    private static final long MDNS = 0x01_00_5E_00_00_FBL;

    @TempDir
    Path dir;

    @Test
    void broadcastAndMulticastReachEveryOtherPortOfTheirVlanOnly() {
        byte[] arp = arp(Frames.ethernet(BROADCAST, A));
        byte[] mdns = Frames.ethernet(MDNS, A).ipv4(FlowKey.PROTO_UDP, 0x0A00_0001, 0xE000_00FB, 255, 0, 8 + 20)
                .udp(5353, 5353, 20).bytes();
        byte[] unknown = Frames.ethernet(0x02_00_00_00_00_99L, A).ipv4(FlowKey.PROTO_UDP, 0x0A00_0001, 0x0A00_0099,
                64, 0, 8 + 20).udp(5000, 5000, 20).bytes();
        byte[] fromUplink = arp(Frames.ethernet(BROADCAST, 0x02_00_00_00_00_BBL).vlan(FlowKey.ETHERTYPE_VLAN, 10));
        byte[] otherVlan = arp(Frames.ethernet(BROADCAST, 0x02_00_00_00_00_BBL).vlan(FlowKey.ETHERTYPE_VLAN, 30));
        Map<Integer, List<String>> legacy = null;
        for (Mode mode : List.of(Mode.LEGACY, Mode.EDP_STANDARD)) {
            EngineConfig config = EngineConfig.builder().mode(mode)
                    .port(replaying(mode, 1, "vm-a", List.of(arp, mdns, unknown, mdns)))
                    .port(replaying(mode, 2, "uplink0", List.of(fromUplink, otherVlan)))
                    .port(capturing(mode, 3, "vm-b")).port(capturing(mode, 4, "vm-c"))
                    .port(capturing(mode, 5, "uplink1"))
                    .vnic(new VnicConfig("vm-a", "a", 1, "02:00:00:00:00:0a", 10, AdapterType.VMXNET3))
                    .vnic(new VnicConfig("vm-b", "b", 3, "02:00:00:00:00:0b", 10, AdapterType.VMXNET3))
                    .vnic(new VnicConfig("vm-c", "c", 4, "02:00:00:00:00:0c", 20, AdapterType.VMXNET3))
                    .build();
            EngineStats stats = CapturedUplinks.replay(config, 6);

            assertThat(stats.flood()).as(mode.toString()).isEqualTo(new EngineStats.FloodStats(4, 4, 0, 0));
            assertThat(stats.drops()).as("no VM port on VLAN 30").isEqualTo(Map.of(DropReason.NO_DESTINATION, 1L));
            Map<Integer, List<String>> sent = new TreeMap<>();
            for (int port = 1; port <= 5; port++) {
                sent.put(port, TestFrames.readCapture(output(mode, port)).stream().map(HexFormat.of()::formatHex)
                        .sorted().toList());
            }
            String tagged10 = "8100000a";
            assertThat(sent.get(3)).as("vm-b: A's broadcast and multicasts untagged, the uplink's broadcast untagged")
                    .containsExactlyInAnyOrder(hex(arp), hex(mdns), hex(mdns), hex(untagged(fromUplink)));
            assertThat(sent.get(2)).as("uplink0: A's frames tagged 10, the unknown unicast too")
                    .containsExactlyInAnyOrder(hex(tagged(arp, tagged10)), hex(tagged(mdns, tagged10)),
                            hex(tagged(mdns, tagged10)), hex(tagged(unknown, tagged10)));
            assertThat(sent.get(1)).as("vm-a: the uplink's broadcast, not its own")
                    .containsExactly(hex(untagged(fromUplink)));
            assertThat(sent.get(4)).as("vm-c is on VLAN 20").isEmpty();
            assertThat(sent.get(5)).as("not the second uplink").isEmpty();
            if (legacy == null) {
                legacy = sent;
            } else {
                assertThat(sent).as("EDP_STANDARD sends LEGACY's bytes").isEqualTo(legacy);
            }
        }
    }

    /**
     * A broadcast storm from vm-a beyond storm control (100 frames a second, bursts of 10): the first 10 frames
     * are flooded (to vm-b and, tagged, the uplink: one copy and the original each), the other 40 dropped before
     * any copy; 100 ms later the bucket holds 10 tokens again, and 10 of the next 20 go out.
     */
    @Test
    void stormControlHoldsAWorkerToItsRateOfFloodedFrames() {
        for (Mode mode : List.of(Mode.LEGACY, Mode.EDP_STANDARD)) {
            EngineConfig config = EngineConfig.builder().mode(mode)
                    .port(PortConfig.loopback(0, "uplink0", 0, 1, 1))
                    .port(PortConfig.loopback(1, "vm-a", 0, 1, 1))
                    .port(PortConfig.loopback(2, "vm-b", 0, 1, 1))
                    .vnic(new VnicConfig("vm-a", "a", 1, "02:00:00:00:00:0a", 10, AdapterType.VMXNET3))
                    .vnic(new VnicConfig("vm-b", "b", 2, "02:00:00:00:00:0b", 10, AdapterType.VMXNET3))
                    .stormControl(new StormControl(100, 10)).mbufs(1024).build();
            ManualClock clock = new ManualClock(0);
            try (Engine engine = Engine.startStepped(config, NicDrivers.withLoopback(), clock)) {
                LoopbackNic uplink = TestTopology.nic(engine, 0);
                LoopbackNic vmB = TestTopology.nic(engine, 2);
                uplink.captureTransmitted(100);
                vmB.captureTransmitted(100);
                byte[] arp = arp(Frames.ethernet(BROADCAST, A));
                storm(engine, arp, 50);

                EngineStats stats = engine.stats();
                assertThat(stats.flood()).as(mode.toString()).isEqualTo(new EngineStats.FloodStats(10, 10, 0, 40));
                assertThat(stats.drops()).isEqualTo(Map.of(DropReason.STORM_CONTROL, 40L));
                assertThat(vmB.takeTransmitted()).hasSize(10).allSatisfy(f -> assertThat(f).isEqualTo(arp));
                assertThat(uplink.takeTransmitted()).hasSize(10);

                clock.advance(java.time.Duration.ofMillis(100));
                storm(engine, arp, 20);
                assertThat(engine.stats().flood()).isEqualTo(new EngineStats.FloodStats(20, 20, 0, 50));
                assertThat(vmB.takeTransmitted()).hasSize(10);
                assertThat(uplink.takeTransmitted()).hasSize(10);
            }
        }
    }

    /** {@code count} copies of {@code frame} from vm-a (port 1), in bursts of 10, each stepped. */
    private static void storm(Engine engine, byte[] frame, int count) {
        for (int i = 0; i < count; i++) {
            assertThat(TestTopology.nic(engine, 1).inject(MemorySegment.ofArray(frame), 0, frame.length)).isTrue();
            if (i % 10 == 9) {
                engine.step();
            }
        }
        engine.step();
    }

    private static byte[] arp(Frames l2) {
        return l2.u16(FlowKey.ETHERTYPE_ARP).u16(1).u16(FlowKey.ETHERTYPE_IPV4).u8(6).u8(4).u16(1)
                .mac(A).u32(0x0A00_0001).mac(0).u32(0x0A00_0002).zeros(18).bytes();
    }

    private static String hex(byte[] frame) {
        return HexFormat.of().formatHex(frame);
    }

    /** The frame with an 802.1Q tag inserted after the MACs. */
    private static byte[] tagged(byte[] frame, String tag) {
        byte[] t = HexFormat.of().parseHex(tag);
        byte[] out = new byte[frame.length + 4];
        System.arraycopy(frame, 0, out, 0, 12);
        System.arraycopy(t, 0, out, 12, 4);
        System.arraycopy(frame, 12, out, 16, frame.length - 12);
        return out;
    }

    private static byte[] untagged(byte[] frame) {
        byte[] out = new byte[frame.length - 4];
        System.arraycopy(frame, 0, out, 0, 12);
        System.arraycopy(frame, 16, out, 12, frame.length - 16);
        return out;
    }

    private PortConfig replaying(Mode mode, int id, String name, List<byte[]> frames) {
        Path input = dir.resolve(mode + "-input" + id + ".pcap");
        TestFrames.writeCapture(input, frames);
        return new PortConfig(id, name, 0, 1, 1, "pcap",
                Map.of("rxFile", input.toString(), "txFile", output(mode, id).toString()));
    }

    private PortConfig capturing(Mode mode, int id, String name) {
        return new PortConfig(id, name, 0, 1, 1, "pcap", Map.of("txFile", output(mode, id).toString()));
    }

    private Path output(Mode mode, int port) {
        return dir.resolve(mode + "-port" + port + ".pcap");
    }
}
