package io.edp.engine.reject;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.bench.HostCommand;
import io.edp.engine.CapturedUplinks;
import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.Mode;
import io.edp.engine.TestTopology;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.packet.InternetChecksum;
import io.edp.engine.slowpath.Gateway;
import io.edp.engine.slowpath.MacAddress;
import io.edp.engine.slowpath.Route;
import io.edp.engine.time.ManualClock;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The router's own packets, as tshark decodes them from the capture the engine writes: ARP replies and neighbor
 * advertisements for the gateway addresses of a segment, echo replies from them, ICMP / ICMPv6 time exceeded for a
 * routed packet whose TTL runs out, every checksum good, the same bytes in LEGACY and EDP_STANDARD; and each
 * worker's token bucket on the engine clock.
 */
class RouterRepliesTest {

    private static final long ROUTER_MAC = MacAddress.parse(EngineConfig.DEFAULT_ROUTER_MAC, "routerMac");
    private static final long HOST_MAC = 0x02_00_00_00_00_aaL;
    private static final long BROADCAST = 0xFFFF_FFFF_FFFFL;
    private static final int VLAN = 100;
    private static final int HOST = 0x0A00_0001; // 10.0.0.1
    private static final int GATEWAY = 0x0A00_00FE; // 10.0.0.254
    private static final int ROUTED = 0x0A80_0101; // 10.128.1.1
    private static final long NET6 = 0xFD00L << 48; // fd00::/64
    private static final long ROUTED6 = 0xFD01L << 48; // fd01::1
    private static final Gateway GATEWAYS = new Gateway(VLAN, "10.0.0.254", "fd00::fe");

    @TempDir
    Path dir;

    @Test
    void theRouterAnswersForItsAddressesAndReportsExpiredTtlsAsTsharkDecodesThemAlikeInEveryMode() {
        List<byte[]> input = List.of(
                arpRequest(BROADCAST, GATEWAY),
                ipv4(ROUTER_MAC, FlowKey.PROTO_ICMP, GATEWAY, 64, echo(8, 24)),
                ipv6(0x3333_FF00_00FEL, FlowKey.PROTO_ICMPV6, 0xFF02L << 48, 0x1_FF00_00FEL, 255,
                        neighborSolicitation(1)),
                ipv6(ROUTER_MAC, FlowKey.PROTO_ICMPV6, NET6, 0xFE, 64, echo(128, 30)),
                ipv4(ROUTER_MAC, FlowKey.PROTO_UDP, ROUTED, 1, udp(40000, 33434, 12)),
                ipv6(ROUTER_MAC, FlowKey.PROTO_UDP, ROUTED6, 1, 1, udp(40000, 33434, 12)),
                // not answered: UDP to the gateway, ARP for another host (flooded: no VM port on the VLAN),
                // a neighbor solicitation with a hop limit below 255
                ipv4(ROUTER_MAC, FlowKey.PROTO_UDP, GATEWAY, 64, udp(40000, 53, 4)),
                arpRequest(BROADCAST, 0x0A00_0077),
                ipv6(0x3333_FF00_00FEL, FlowKey.PROTO_ICMPV6, 0xFF02L << 48, 0x1_FF00_00FEL, 64,
                        neighborSolicitation(1)));
        CapturedUplinks ports = new CapturedUplinks(dir);
        String legacy = null;
        for (Mode mode : List.of(Mode.LEGACY, Mode.EDP_STANDARD)) {
            EngineConfig config = ports.config(mode, input).gateway(GATEWAYS)
                    .route(new Route("10.128.0.0/16", "02:00:00:00:00:fe", 2, 0))
                    .route(new Route("fd01::/16", "02:00:00:00:00:fe", 2, 0)).build();
            EngineStats stats = CapturedUplinks.replay(config, input.size());

            assertThat(stats.routerReplies()).as(mode.toString())
                    .isEqualTo(new EngineStats.RouterReplyStats(1, 1, 2, 2, 0, 0, 0, 2));
            assertThat(stats.drops()).isEqualTo(Map.of(DropReason.TO_ROUTER, 6L, DropReason.TTL_EXCEEDED, 2L,
                    DropReason.NO_DESTINATION, 1L));
            assertThat(stats.flood()).isEqualTo(new EngineStats.FloodStats(0, 0, 0, 0));
            Path replies = ports.output(mode, 1);
            List<String> decoded = tshark(replies, "eth.dst", "eth.src", "vlan.id", "arp.opcode", "arp.src.hw_mac",
                    "arp.src.proto_ipv4", "arp.dst.hw_mac", "arp.dst.proto_ipv4", "ip.src", "ip.dst", "ip.ttl",
                    "ipv6.src", "ipv6.dst", "ipv6.hlim", "icmp.type", "icmp.code", "icmpv6.type", "icmpv6.code",
                    "icmpv6.nd.na.target_address", "icmpv6.nd.na.flag.s", "icmpv6.opt.linkaddr", "ip.checksum.status",
                    "icmp.checksum.status", "icmpv6.checksum.status"); // checksum status 1: verified good
            String l2 = "02:00:00:00:00:aa\t02:ed:00:00:00:01\t100\t";
            assertThat(decoded).as(mode.toString()).containsExactly(
                    l2 + "2\t02:ed:00:00:00:01\t10.0.0.254\t02:00:00:00:00:aa\t10.0.0.1" + "\t".repeat(16),
                    l2 + "\t\t\t\t\t10.0.0.254\t10.0.0.1\t64\t\t\t\t0\t0\t\t\t\t\t\t1\t1\t",
                    l2 + "\t\t\t\t\t\t\t\tfd00::fe\tfd00::1\t255\t\t\t136\t0\tfd00::fe\t1\t02:ed:00:00:00:01\t\t\t1",
                    l2 + "\t\t\t\t\t\t\t\tfd00::fe\tfd00::1\t64\t\t\t129\t0\t\t\t\t\t\t1",
                    l2 + "\t\t\t\t\t10.0.0.254\t10.0.0.1\t64\t\t\t\t11\t0\t\t\t\t\t\t1\t1\t",
                    l2 + "\t\t\t\t\t\t\t\tfd00::fe\tfd00::1\t64\t\t\t3\t0\t\t\t\t\t\t1");
            assertThat(HostCommand.run("tshark", "-r", replies.toString(), "-o", "ip.check_checksum:TRUE",
                    "-Y", "_ws.malformed || _ws.expert.severity >= \"Error\"")).as("malformed or in error").isBlank();
            List<byte[]> sent = ports.sent(mode, 1);
            assertThat(sent.get(0)).as("ARP reply padded to the Ethernet minimum").hasSize(60);
            assertThat(Arrays.copyOfRange(sent.get(1), 18 + 20 + 4, sent.get(1).length))
                    .as("the echo's identifier, sequence and data come back")
                    .isEqualTo(Arrays.copyOfRange(input.get(1), 18 + 20 + 4, input.get(1).length));
            assertThat(Arrays.copyOfRange(sent.get(4), 18 + 20 + 8, sent.get(4).length))
                    .as("time exceeded quotes the IP header and 8 bytes")
                    .isEqualTo(Arrays.copyOfRange(input.get(4), 18, 18 + 28));
            String hex = String.join(",", sent.stream().map(HexFormat.of()::formatHex).toList());
            if (legacy == null) {
                legacy = hex;
            } else {
                assertThat(hex).as("EDP_STANDARD sends LEGACY's bytes").isEqualTo(legacy);
            }
        }
    }

    @Test
    void aRoutedPacketOverItsEgressMtuIsAnsweredWithFragmentationNeededOrPacketTooBig() {
        byte[] big4 = ipv4(ROUTER_MAC, FlowKey.PROTO_UDP, ROUTED, 64, udp(40000, 53, 1300 - 28 + 1)); // 1,301 bytes
        byte[] fits4 = ipv4(ROUTER_MAC, FlowKey.PROTO_UDP, ROUTED, 64, udp(40000, 53, 1300 - 28));
        byte[] big6 = ipv6(ROUTER_MAC, FlowKey.PROTO_UDP, ROUTED6, 1, 64, udp(40000, 53, 1300 - 48 + 1));
        List<byte[]> input = List.of(big4, fits4, big6);
        CapturedUplinks ports = new CapturedUplinks(dir);
        String legacy = null;
        for (Mode mode : List.of(Mode.LEGACY, Mode.EDP_STANDARD)) {
            EngineConfig built = ports.config(mode, input).gateway(GATEWAYS)
                    .route(new Route("10.128.0.0/16", "02:00:00:00:00:fe", 2, 0))
                    .route(new Route("fd01::/16", "02:00:00:00:00:fe", 2, 0)).build();
            EngineConfig config = built.toBuilder().ports(built.ports().stream()
                    .map(p -> p.id() == 2 ? p.withMtu(1300) : p).toList()).build();
            EngineStats stats = CapturedUplinks.replay(config, input.size());

            assertThat(stats.routerReplies().packetTooBig()).as(mode.toString()).isEqualTo(2);
            assertThat(stats.drops()).isEqualTo(Map.of(DropReason.MTU_EXCEEDED, 2L));
            assertThat(ports.sent(mode, 2)).as("the packet that fits").hasSize(1);
            Path replies = ports.output(mode, 1);
            assertThat(tshark(replies, "ip.src", "ip.dst", "icmp.type", "icmp.code", "icmp.mtu", "ipv6.src",
                    "ipv6.dst", "icmpv6.type", "icmpv6.code", "icmpv6.mtu", "ip.checksum.status",
                    "icmp.checksum.status", "icmpv6.checksum.status")).containsExactly(
                    "10.0.0.254\t10.0.0.1\t3\t4\t1300\t\t\t\t\t\t1\t1\t",
                    "\t\t\t\t\tfd00::fe\tfd00::1\t2\t0\t1300\t\t\t1");
            String hex = String.join(",", ports.sent(mode, 1).stream().map(HexFormat.of()::formatHex).toList());
            if (legacy == null) {
                legacy = hex;
            } else {
                assertThat(hex).as("EDP_STANDARD sends LEGACY's bytes").isEqualTo(legacy);
            }
        }
    }

    @Test
    void eachWorkerAnswersAtMostItsTokenBucketOnTheEngineClock() {
        ManualClock clock = new ManualClock(1_000_000_000L);
        EngineConfig config = TestTopology.config(Mode.EDP_STANDARD).gateway(new Gateway(10, "10.0.0.254", null))
                .build();
        byte[] ping = ipv4(10, ROUTER_MAC, FlowKey.PROTO_ICMP, GATEWAY, 64, echo(8, 8));
        try (Engine engine = Engine.start(config, NicDrivers.withLoopback(), clock)) {
            EngineStats burst = RejectRepliesTest.inject(engine, ping, 150, 150);
            clock.advance(Duration.ofMillis(50)); // 50 tokens
            EngineStats later = RejectRepliesTest.inject(engine, ping, 100, 250);
            clock.advance(Duration.ofSeconds(10)); // a full bucket holds 100, however long it waited
            EngineStats refilled = RejectRepliesTest.inject(engine, ping, 150, 400);

            assertThat(burst.routerReplies().echoReplies()).isEqualTo(RouterReplies.BURST);
            assertThat(burst.routerReplies().rateLimited()).isEqualTo(50);
            assertThat(later.routerReplies().echoReplies()).isEqualTo(150);
            assertThat(later.routerReplies().rateLimited()).isEqualTo(100);
            assertThat(refilled.routerReplies().echoReplies()).isEqualTo(250);
            assertThat(refilled.routerReplies().rateLimited()).isEqualTo(150);
            assertThat(refilled.ports().get(0).txPackets()).as("replies out of the ingress uplink").isEqualTo(250);
            assertThat(refilled.drops()).isEqualTo(Map.of(DropReason.TO_ROUTER, 400L));
            assertThat(refilled.flowCache().hits()).as("frames for the router are not cached").isZero();
        }
    }

    /** The fields of every frame in {@code file} as tshark decodes them, tab-separated. */
    private static List<String> tshark(Path file, String... fields) {
        return RejectRepliesTest.tshark(file, fields).stream().map(line -> String.join("\t", line)).toList();
    }

    /** Who has {@code target}? Tell 10.0.0.1. */
    static byte[] arpRequest(long dstMac, int target) {
        ByteBuffer b = l2(VLAN, dstMac, 28, FlowKey.ETHERTYPE_ARP);
        b.putShort((short) 1).putShort((short) FlowKey.ETHERTYPE_IPV4).put((byte) 6).put((byte) 4)
                .putShort((short) 1).put(mac(HOST_MAC)).putInt(HOST).put(new byte[6]).putInt(target);
        return b.array();
    }

    static byte[] ipv4(long dstMac, int proto, int destination, int ttl, byte[] l4) {
        return ipv4(VLAN, dstMac, proto, destination, ttl, l4);
    }

    /** 10.0.0.1 → {@code destination}, tagged {@code vlan}; every checksum correct. */
    static byte[] ipv4(int vlan, long dstMac, int proto, int destination, int ttl, byte[] l4) {
        ByteBuffer b = l2(vlan, dstMac, 20 + l4.length, FlowKey.ETHERTYPE_IPV4);
        int l3 = b.position();
        b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + l4.length)).putInt(0).put((byte) ttl)
                .put((byte) proto).putShort((short) 0).putInt(HOST).putInt(destination).put(l4);
        byte[] frame = b.array();
        MemorySegment s = MemorySegment.ofArray(frame);
        put16(frame, l3 + 10, InternetChecksum.finish(InternetChecksum.add(0, s, l3, 20)));
        long pseudo = proto == FlowKey.PROTO_ICMP ? 0 : InternetChecksum.add(proto + l4.length, s, l3 + 12, 8);
        put16(frame, l3 + 20 + (proto == FlowKey.PROTO_UDP ? 6 : 2),
                InternetChecksum.finish(InternetChecksum.add(pseudo, s, l3 + 20, l4.length)));
        return frame;
    }

    /** fd00::1 → (dstHi, dstLo); its checksum correct. */
    static byte[] ipv6(long dstMac, int proto, long dstHi, long dstLo, int hopLimit, byte[] l4) {
        ByteBuffer b = l2(VLAN, dstMac, 40 + l4.length, FlowKey.ETHERTYPE_IPV6);
        int l3 = b.position();
        b.putInt(6 << 28).putShort((short) l4.length).put((byte) proto).put((byte) hopLimit)
                .putLong(NET6).putLong(1).putLong(dstHi).putLong(dstLo).put(l4);
        byte[] frame = b.array();
        MemorySegment s = MemorySegment.ofArray(frame);
        long pseudo = InternetChecksum.add(proto + l4.length, s, l3 + 8, 32);
        put16(frame, l3 + 40 + (proto == FlowKey.PROTO_UDP ? 6 : 2),
                InternetChecksum.finish(InternetChecksum.add(pseudo, s, l3 + 40, l4.length)));
        return frame;
    }

    private static ByteBuffer l2(int vlan, long dstMac, int l3Bytes, int etherType) {
        ByteBuffer b = ByteBuffer.allocate(18 + l3Bytes);
        b.put(mac(dstMac)).put(mac(HOST_MAC)).putShort((short) FlowKey.ETHERTYPE_VLAN).putShort((short) vlan);
        return b.putShort((short) etherType);
    }

    static byte[] echo(int type, int payload) {
        ByteBuffer b = ByteBuffer.allocate(8 + payload).put((byte) type).put((byte) 0).putShort((short) 0)
                .putInt(0x1234_0007);
        for (int i = 0; i < payload; i++) {
            b.put((byte) i);
        }
        return b.array();
    }

    /** Solicits fd00::{@code lo}, with the source link-layer address option. */
    static byte[] neighborSolicitation(long lo) {
        return ByteBuffer.allocate(32).put((byte) 135).put((byte) 0).putShort((short) 0).putInt(0)
                .putLong(NET6).putLong(0xFE).put((byte) 1).put((byte) 1).put(mac(HOST_MAC)).array();
    }

    static byte[] udp(int sport, int dport, int payload) {
        return ByteBuffer.allocate(8 + payload).putShort((short) sport).putShort((short) dport)
                .putShort((short) (8 + payload)).array();
    }

    private static byte[] mac(long mac) {
        return Arrays.copyOfRange(ByteBuffer.allocate(8).putLong(mac << 16).array(), 0, 6);
    }

    private static void put16(byte[] frame, int at, short value) {
        frame[at] = (byte) (value >> 8);
        frame[at + 1] = (byte) value;
    }
}
