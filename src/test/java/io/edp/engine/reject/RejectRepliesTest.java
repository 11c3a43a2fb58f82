package io.edp.engine.reject;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.bench.HostCommand;
import io.edp.engine.Await;
import io.edp.engine.CapturedUplinks;
import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.Mode;
import io.edp.engine.TestTopology;
import io.edp.engine.Traffic;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.packet.InternetChecksum;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.MacAddress;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.Verdict;
import io.edp.engine.time.ManualClock;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Packets refused by a REJECT rule are answered out of their ingress port — TCP with a reset, the rest with ICMP /
 * ICMPv6 destination unreachable, administratively prohibited — as tshark decodes them from the capture the engine
 * writes, alike in LEGACY and EDP_STANDARD (where a REJECT is not cached: it rests on the absence of a connection,
 * so every rejected packet meets the rules), and no faster than each worker's token bucket allows.
 */
class RejectRepliesTest {

    private static final long ROUTER_MAC = MacAddress.parse(EngineConfig.DEFAULT_ROUTER_MAC, "routerMac");
    private static final long SENDER_MAC = 0x02_00_00_00_00_aaL;
    private static final int VLAN = 100;
    private static final int CLIENT = 0x0A00_0001; // 10.0.0.1
    private static final int REJECTED = 0x0A80_0909; // 10.128.9.9
    private static final int ALLOWED = 0x0A80_0101; // 10.128.1.1
    private static final long CLIENT6_HI = 0xFD00L << 48;
    private static final long REJECTED6_HI = 0xFD01L << 48;
    private static final long REJECTED6_LO = 0x9_0009L;

    @TempDir
    Path dir;

    /** Uplink 1 replays, uplinks 1 and 2 capture; 10.128.9.0/24 and fd01::9:0/112 are rejected. */
    private static EngineConfig config(CapturedUplinks ports, Mode mode, List<byte[]> input) {
        return ports.config(mode, input)
                .route(new Route("10.128.0.0/16", "02:00:00:00:00:fe", 2, 0))
                .route(new Route("fd01::/16", "02:00:00:00:00:fe", 2, 0))
                .rule(FirewallRule.of(1, "any", "10.128.9.0/24", 0, Verdict.REJECT))
                .rule(FirewallRule.of(2, "any", "fd01::9:0/112", 0, Verdict.REJECT))
                .build();
    }

    @Test
    void rejectedPacketsAreAnsweredOutOfTheirIngressPortAsTsharkDecodesThemAlikeInEveryMode() {
        byte[] fragmented4 = ipv4(FlowKey.PROTO_UDP, REJECTED, udp(5002, 53, 32));
        byte[] fragmented6 = ipv6(FlowKey.PROTO_UDP, udp(5002, 53, 32));
        List<byte[]> round = List.of(
                ipv4(FlowKey.PROTO_TCP, REJECTED, tcp(40000, 80, 1000, 0, FlowKey.TCP_SYN, 0)),
                ipv4(FlowKey.PROTO_TCP, REJECTED, tcp(40001, 80, 5000, 7000, FlowKey.TCP_ACK | 0x08, 10)),
                ipv4(FlowKey.PROTO_TCP, REJECTED, tcp(40002, 80, 100, 0, FlowKey.TCP_FIN, 10)),
                ipv4(FlowKey.PROTO_UDP, REJECTED, udp(5000, 53, 20)),
                ipv4(FlowKey.PROTO_ICMP, REJECTED, icmp(8, 0, 16)),
                ipv6(FlowKey.PROTO_UDP, udp(5000, 53, 20)),
                ipv6(FlowKey.PROTO_TCP, tcp(40000, 443, 42, 0, FlowKey.TCP_SYN, 0)),
                ipv6(FlowKey.PROTO_UDP, udp(5001, 53, 1400)),
                ipv4Fragment(fragmented4, 0, 24),
                ipv6Fragment(fragmented6, 0, 24),
                withOuterTag(ipv4(FlowKey.PROTO_UDP, REJECTED, udp(5000, 53, 20))),
                // no answer to a later fragment, a reset or an ICMP error; an allowed packet is routed as usual
                ipv4Fragment(fragmented4, 24, 40),
                ipv6Fragment(fragmented6, 24, 40),
                ipv4(FlowKey.PROTO_TCP, REJECTED, tcp(40003, 80, 1, 0, FlowKey.TCP_RST, 0)),
                ipv4(FlowKey.PROTO_ICMP, REJECTED, icmp(3, 1, 28)),
                ipv4(FlowKey.PROTO_UDP, ALLOWED, udp(5000, 53, 20)));
        List<byte[]> input = new ArrayList<>(round);
        input.addAll(round); // EDP_STANDARD: only the allowed packet's second copy hits the cache

        CapturedUplinks ports = new CapturedUplinks(dir);
        List<String> legacyReplies = List.of();
        for (Mode mode : List.of(Mode.LEGACY, Mode.EDP_STANDARD)) {
            EngineStats stats = CapturedUplinks.replay(config(ports, mode, input), input.size());

            assertThat(stats.drops()).as(mode.toString()).isEqualTo(Map.of(DropReason.FIREWALL_REJECT, 30L));
            assertThat(stats.rejectReplies()).isEqualTo(new EngineStats.RejectReplyStats(22, 0, 0));
            if (mode == Mode.EDP_STANDARD) {
                assertThat(stats.flowCache().hits()).as("the allowed packet's second copy; no REJECT is cached")
                        .isEqualTo(1);
            }
            assertThat(ports.sent(mode, 2)).as("the allowed packets").hasSize(2);
            Path replies = ports.output(mode, 1);
            // per reply: 17 decoded fields, then the 4 checksum verdicts (1: verified good, empty: no such header)
            List<String[]> lines = tshark(replies, "eth.dst", "eth.src", "vlan.id", "ip.src", "ip.dst", "ipv6.src",
                    "ipv6.dst", "ipv6.plen", "tcp.srcport", "tcp.dstport", "tcp.seq_raw", "tcp.ack_raw",
                    "tcp.flags", "icmp.type", "icmp.code", "icmpv6.type", "icmpv6.code",
                    "ip.checksum.status", "tcp.checksum.status", "icmp.checksum.status", "icmpv6.checksum.status");
            List<String> decoded = lines.stream().map(line -> String.join("\t", Arrays.copyOf(line, 17))).toList();
            String l2 = "02:00:00:00:00:aa\t02:ed:00:00:00:01\t100\t";
            List<String> expected = List.of(
                    l2 + "10.128.9.9\t10.0.0.1\t\t\t\t80\t40000\t0\t1001\t0x0014\t\t\t\t",
                    l2 + "10.128.9.9\t10.0.0.1\t\t\t\t80\t40001\t7000\t0\t0x0004\t\t\t\t",
                    l2 + "10.128.9.9\t10.0.0.1\t\t\t\t80\t40002\t0\t111\t0x0014\t\t\t\t",
                    l2 + "10.128.9.9\t10.0.0.1\t\t\t\t\t\t\t\t\t3\t13\t\t",
                    l2 + "10.128.9.9\t10.0.0.1\t\t\t\t\t\t\t\t\t3\t13\t\t",
                    l2 + "\t\tfd01::9:9\tfd00::1\t76\t\t\t\t\t\t\t\t1\t1",
                    l2 + "\t\tfd01::9:9\tfd00::1\t20\t443\t40000\t0\t43\t0x0014\t\t\t\t",
                    l2 + "\t\tfd01::9:9\tfd00::1\t1240\t\t\t\t\t\t\t\t1\t1",
                    l2 + "10.128.9.9\t10.0.0.1\t\t\t\t\t\t\t\t\t3\t13\t\t",
                    l2 + "\t\tfd01::9:9\tfd00::1\t80\t\t\t\t\t\t\t\t1\t1",
                    l2 + "10.128.9.9\t10.0.0.1\t\t\t\t\t\t\t\t\t3\t13\t\t");
            List<String> twice = new ArrayList<>(expected);
            twice.addAll(expected);
            assertThat(decoded).as(mode.toString()).containsExactlyElementsOf(twice);
            assertThat(lines).as("checksums verified good").allSatisfy(line -> assertThat(
                    Arrays.copyOfRange(line, 17, 21)).filteredOn(status -> !status.isEmpty()).containsOnly("1")
                    .isNotEmpty());
            assertThat(HostCommand.run("tshark", "-r", replies.toString(), "-o", "tcp.check_checksum:TRUE",
                    "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
                    "-Y", "_ws.malformed || _ws.expert.severity >= \"Error\"")).as("malformed or in error").isBlank();

            // the ICMP errors quote the offending packet: its IP header and 8 bytes, or for ICMPv6 up to 1232 bytes
            List<byte[]> sent = ports.sent(mode, 1);
            assertThat(quoted(sent.get(3), 20 + 8)).isEqualTo(ipPacket(input.get(3), 20 + 8));
            assertThat(quoted(sent.get(5), 40 + 8 + 20)).isEqualTo(ipPacket(input.get(5), 40 + 8 + 20));
            assertThat(quoted(sent.get(7), 1232)).isEqualTo(ipPacket(input.get(7), 1232));
            assertThat(quoted(sent.get(8), 20 + 8)).isEqualTo(ipPacket(input.get(8), 20 + 8));
            assertThat(quoted(sent.get(9), 40 + 8 + 24)).isEqualTo(ipPacket(input.get(9), 40 + 8 + 24));
            // a QinQ packet's reply carries both its tags, and is otherwise the single-tagged packet's reply
            assertThat(Arrays.copyOfRange(sent.get(10), 12, 22)).isEqualTo(Arrays.copyOfRange(input.get(10), 12, 22));
            assertThat(withoutOuterTag(sent.get(10))).isEqualTo(sent.get(3));
            List<String> hex = sent.stream().map(HexFormat.of()::formatHex).toList();
            assertThat(hex.subList(11, 22)).as("a flow's replies are the same every time")
                    .isEqualTo(hex.subList(0, 11));
            if (mode == Mode.LEGACY) {
                legacyReplies = hex;
            } else {
                assertThat(hex).as("EDP_STANDARD sends LEGACY's bytes").isEqualTo(legacyReplies);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Mode.class, names = {"LEGACY", "EDP_STANDARD"})
    void eachWorkerAnswersAtMostItsTokenBucketOnTheEngineClock(Mode mode) {
        ManualClock clock = new ManualClock(1_000_000_000L);
        EngineConfig config = TestTopology.config(mode)
                .rule(FirewallRule.of(1, "any", "10.128.9.0/24", FlowKey.PROTO_UDP, Verdict.REJECT))
                .build();
        byte[] frame = ipv4(10, FlowKey.PROTO_UDP, REJECTED, udp(5000, 53, 20)); // to the router on VLAN 10
        try (Engine engine = Engine.start(config, NicDrivers.withLoopback(), clock)) {
            EngineStats burst = inject(engine, frame, 150, 150);
            clock.advance(Duration.ofMillis(500)); // 50 tokens
            EngineStats halfSecond = inject(engine, frame, 100, 250);
            clock.advance(Duration.ofSeconds(10)); // a full bucket holds 100, however long it waited
            EngineStats refilled = inject(engine, frame, 150, 400);

            assertThat(burst.rejectReplies()).isEqualTo(new EngineStats.RejectReplyStats(100, 50, 0));
            assertThat(halfSecond.rejectReplies()).isEqualTo(new EngineStats.RejectReplyStats(150, 100, 0));
            assertThat(refilled.rejectReplies()).isEqualTo(new EngineStats.RejectReplyStats(250, 150, 0));
            assertThat(refilled.drops()).isEqualTo(Map.of(DropReason.FIREWALL_REJECT, 400L));
            assertThat(refilled.ports().get(0).txPackets()).as("replies out of the ingress uplink").isEqualTo(250);
            assertThat(TestTopology.nic(engine, 0).sink().packets()).isEqualTo(250);
            if (mode == Mode.EDP_STANDARD) {
                assertThat(refilled.flowCache().hits()).as("no REJECT is cached").isZero();
            }
        }
    }

    /** Puts {@code frame} on port 0's wire {@code count} times, then waits until all {@code total} are handled. */
    static EngineStats inject(Engine engine, byte[] frame, int count, long total) {
        LoopbackNic nic = TestTopology.nic(engine, 0);
        MemorySegment wire = MemorySegment.ofArray(frame);
        for (int i = 0; i < count; i++) {
            Await.until("a posted RX buffer", () -> nic.inject(wire, 0, frame.length), Duration.ofSeconds(10));
        }
        return Traffic.drained(engine, total);
    }


    /** The fields of every frame in {@code file} as tshark decodes them (checksums checked). */
    static List<String[]> tshark(Path file, String... fields) {
        List<String> command = new ArrayList<>(List.of("tshark", "-r", file.toString(), "-o",
                "tcp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE", "-T", "fields", "-E", "occurrence=f"));
        for (String field : fields) {
            command.add("-e");
            command.add(field);
        }
        return HostCommand.run(command.toArray(String[]::new)).lines().map(line -> line.split("\t", -1)).toList();
    }

    /** The first {@code bytes} bytes an ICMP / ICMPv6 error quotes (after its 8-byte header). */
    private static byte[] quoted(byte[] reply, int bytes) {
        int icmp = 18 + (reply[16] == 0x08 ? 20 : 40);
        assertThat(reply.length).as("quote length").isEqualTo(icmp + 8 + bytes);
        return Arrays.copyOfRange(reply, icmp + 8, icmp + 8 + bytes);
    }

    private static byte[] ipPacket(byte[] frame, int bytes) {
        return Arrays.copyOfRange(frame, 18, 18 + bytes);
    }

    private static byte[] ipv4(int proto, int destination, byte[] l4) {
        return ipv4(VLAN, proto, destination, l4);
    }

    /** 10.0.0.1 → {@code destination} with {@code l4}, tagged {@code vlan}; every checksum correct. */
    private static byte[] ipv4(int vlan, int proto, int destination, byte[] l4) {
        ByteBuffer b = l2(vlan, 20 + l4.length, FlowKey.ETHERTYPE_IPV4);
        int l3 = b.position();
        b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + l4.length)).putInt(0).put((byte) 64)
                .put((byte) proto).putShort((short) 0).putInt(CLIENT).putInt(destination).put(l4);
        byte[] frame = b.array();
        MemorySegment s = MemorySegment.ofArray(frame);
        put16(frame, l3 + 10, InternetChecksum.finish(InternetChecksum.add(0, s, l3, 20)));
        long pseudo = proto == FlowKey.PROTO_ICMP ? 0 : InternetChecksum.add(proto + l4.length, s, l3 + 12, 8);
        putL4Checksum(frame, proto, l3 + 20, pseudo, l4.length);
        return frame;
    }

    /** fd00::1 → fd01::9:9 with {@code l4}; its checksum correct. */
    private static byte[] ipv6(int proto, byte[] l4) {
        ByteBuffer b = l2(VLAN, 40 + l4.length, FlowKey.ETHERTYPE_IPV6);
        int l3 = b.position();
        b.putInt(6 << 28).putShort((short) l4.length).put((byte) proto).put((byte) 64)
                .putLong(CLIENT6_HI).putLong(1).putLong(REJECTED6_HI).putLong(REJECTED6_LO).put(l4);
        byte[] frame = b.array();
        long pseudo = InternetChecksum.add(proto + l4.length, MemorySegment.ofArray(frame), l3 + 8, 32);
        putL4Checksum(frame, proto, l3 + 40, pseudo, l4.length);
        return frame;
    }

    /** The IPv4 fragment of {@code datagram} (a frame of {@link #ipv4}) that carries its payload bytes [from, to). */
    private static byte[] ipv4Fragment(byte[] datagram, int from, int to) {
        int l3 = 18;
        int payload = datagram.length - l3 - 20;
        byte[] frame = Arrays.copyOf(datagram, l3 + 20 + to - from);
        System.arraycopy(datagram, l3 + 20 + from, frame, l3 + 20, to - from);
        put16(frame, l3 + 2, (short) (20 + to - from));
        put16(frame, l3 + 4, (short) 0x1234); // identification
        put16(frame, l3 + 6, (short) ((to < payload ? 0x2000 : 0) | from / 8)); // more fragments, offset
        put16(frame, l3 + 10, (short) 0);
        put16(frame, l3 + 10, InternetChecksum.finish(InternetChecksum.add(0, MemorySegment.ofArray(frame), l3, 20)));
        return frame;
    }

    /** The IPv6 fragment of {@code datagram} (a frame of {@link #ipv6}) that carries its payload bytes [from, to). */
    private static byte[] ipv6Fragment(byte[] datagram, int from, int to) {
        int l3 = 18;
        int payload = datagram.length - l3 - 40;
        ByteBuffer b = ByteBuffer.allocate(l3 + 40 + 8 + to - from).put(datagram, 0, l3 + 40);
        b.put(datagram[l3 + 6]).put((byte) 0).putShort((short) (from | (to < payload ? 1 : 0))).putInt(0x1234);
        byte[] frame = b.put(datagram, l3 + 40 + from, to - from).array();
        put16(frame, l3 + 4, (short) (8 + to - from));
        frame[l3 + 6] = 44; // next header: fragment
        return frame;
    }

    /** {@code frame} in an outer 802.1ad tag of VLAN 200 (QinQ). */
    private static byte[] withOuterTag(byte[] frame) {
        return ByteBuffer.allocate(frame.length + 4).put(frame, 0, 12).putShort((short) FlowKey.ETHERTYPE_QINQ)
                .putShort((short) 200).put(frame, 12, frame.length - 12).array();
    }

    private static byte[] withoutOuterTag(byte[] frame) {
        return ByteBuffer.allocate(frame.length - 4).put(frame, 0, 12).put(frame, 16, frame.length - 16).array();
    }

    /** Ethernet to the router, tagged {@code vlan}, with room for {@code l3Bytes}. */
    private static ByteBuffer l2(int vlan, int l3Bytes, int etherType) {
        ByteBuffer b = ByteBuffer.allocate(18 + l3Bytes);
        b.put(mac(ROUTER_MAC)).put(mac(SENDER_MAC)).putShort((short) FlowKey.ETHERTYPE_VLAN).putShort((short) vlan);
        return b.putShort((short) etherType);
    }

    private static void putL4Checksum(byte[] frame, int proto, int l4, long pseudo, int length) {
        int at = l4 + (proto == FlowKey.PROTO_TCP ? 16 : proto == FlowKey.PROTO_UDP ? 6 : 2);
        put16(frame, at, InternetChecksum.finish(InternetChecksum.add(pseudo, MemorySegment.ofArray(frame), l4,
                length)));
    }

    private static byte[] tcp(int sport, int dport, int seq, int ack, int flags, int payload) {
        return ByteBuffer.allocate(20 + payload).putShort((short) sport).putShort((short) dport).putInt(seq)
                .putInt(ack).put((byte) 0x50).put((byte) flags).putShort((short) 0xFFFF).array();
    }

    private static byte[] udp(int sport, int dport, int payload) {
        return ByteBuffer.allocate(8 + payload).putShort((short) sport).putShort((short) dport)
                .putShort((short) (8 + payload)).array();
    }

    private static byte[] icmp(int type, int code, int payload) {
        return ByteBuffer.allocate(8 + payload).put((byte) type).put((byte) code).putShort((short) 0)
                .putInt(0x1234_0001).array();
    }

    private static byte[] mac(long mac) {
        return Arrays.copyOfRange(ByteBuffer.allocate(8).putLong(mac << 16).array(), 0, 6);
    }

    private static void put16(byte[] frame, int at, short value) {
        frame[at] = (byte) (value >> 8);
        frame[at + 1] = (byte) value;
    }
}
