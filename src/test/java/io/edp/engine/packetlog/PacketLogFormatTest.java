package io.edp.engine.packetlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.packet.FlowKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The line format, the per-worker rate limit, the bounded hand-off and the rotating file, on their own. */
class PacketLogFormatTest {

    private static final long A = 0x0A00_0001L << 32; // 10.0.0.1
    private static final long B = 0x0A00_0002L << 32; // 10.0.0.2
    private static final long V6_HI = 0xfd00_0000_0000_0000L;
    private static final long WALL = 1_796_275_800_125L; // 2026-12-03T05:30:00.125Z
    private static final LogLine.Ports PORTS = ports();

    @TempDir
    Path dir;

    private static LogLine.Ports ports() {
        String[] names = new String[4];
        boolean[] uplinks = new boolean[4];
        names[0] = "uplink0";
        uplinks[0] = true;
        names[1] = "vm-a-eth0";
        return new LogLine.Ports(names, uplinks);
    }

    private static List<String> lines(PacketLogWriter w) {
        List<String> lines = new ArrayList<>();
        w.ring().drain((r, base) -> {
            StringBuilder line = new StringBuilder();
            LogLine.append(line, r, base, WALL, PORTS);
            lines.add(line.toString());
        });
        return lines;
    }

    @Test
    void linesFollowTheNsxFieldOrder() {
        PacketLogWriter w = new PacketLogWriter(100);
        // a SYN from VM port 1 (leaving the VM: OUT), switched to the uplink
        w.opened(PacketLogWriter.PASS, 1001, A, 0, B, 0, FlowKey.l4Word(40000, 80, FlowKey.PROTO_TCP, 4, 1), 0,
                FlowKey.TCP_SYN, 74, 5);
        // a UDP packet from the uplink to VM port 1 (arriving: IN, named by the VM's interface), dropped
        w.opened(PacketLogWriter.DROP, 8, B, 0, A, 0, FlowKey.l4Word(53, 4000, FlowKey.PROTO_UDP, 4, 0), 1, 0, 60, 5);
        // an ICMPv6 echo from the uplink, routed (egress not known yet), rejected
        w.opened(PacketLogWriter.REJECT, 9, V6_HI, 2, V6_HI, 1,
                FlowKey.l4Word(128, 0, FlowKey.PROTO_ICMPV6, 6, 0), -1, 0, 70, 5);
        w.ended(PacketLogWriter.FIN, 1001, 1, 0, A, 0, B, 0, 40000, 80, FlowKey.PROTO_TCP, 4, 6, 5, 480, 1900, 5);
        w.ended(PacketLogWriter.TIMEOUT, 7, 1, 0, V6_HI, 1, V6_HI, 2, 1000, 53, FlowKey.PROTO_UDP, 6, 1, 0, 80, 0, 5);

        assertThat(lines(w)).containsExactly(
                "2026-12-03T05:30:00.125Z vm-a-eth0 INET match PASS 1001 OUT 74 TCP 10.0.0.1/40000->10.0.0.2/80 S",
                "2026-12-03T05:30:00.125Z vm-a-eth0 INET match DROP 8 IN 60 UDP 10.0.0.2/53->10.0.0.1/4000",
                "2026-12-03T05:30:00.125Z uplink0 INET6 match REJECT 9 IN 70 IPV6-ICMP fd00::2->fd00::1",
                "2026-12-03T05:30:00.125Z vm-a-eth0 INET TERM 1001 OUT TCP FIN "
                        + "10.0.0.1/40000->10.0.0.2/80 6/5 480/1900",
                "2026-12-03T05:30:00.125Z vm-a-eth0 INET6 TERM 7 OUT UDP TIMEOUT fd00::1/1000->fd00::2/53 1/0 80/0");
    }

    @Test
    void ipv6AddressesAreWrittenInTheirShortestForm() {
        PacketLogWriter w = new PacketLogWriter(100);
        long l4 = FlowKey.l4Word(1, 2, FlowKey.PROTO_UDP, 6, 1);
        // 2001:db8:0:0:1:0:0:1 (the first of two equal runs), 2001:0:0:1:0:0:0:1 (the longer run), :: and ::1
        w.opened(PacketLogWriter.PASS, 1, 0x2001_0db8_0000_0000L, 0x0001_0000_0000_0001L, 0, 0, l4, 0, 0, 60, 0);
        w.opened(PacketLogWriter.PASS, 1, 0x2001_0000_0000_0001L, 0x0000_0000_0000_0001L, 0, 1, l4, 0, 0, 60, 0);
        assertThat(lines(w)).extracting(l -> l.substring(l.indexOf("UDP ") + 4)).containsExactly(
                "2001:db8::1:0:0:1/1->::/2", "2001:0:0:1::1/1->::1/2");
    }

    @Test
    void tcpFlagsAreWrittenSynFirst() {
        PacketLogWriter w = new PacketLogWriter(100);
        long l4 = FlowKey.l4Word(40000, 80, FlowKey.PROTO_TCP, 4, 1);
        w.opened(PacketLogWriter.PASS, 1, A, 0, B, 0, l4, 0, FlowKey.TCP_SYN | FlowKey.TCP_ACK, 60, 0);
        w.opened(PacketLogWriter.PASS, 1, A, 0, B, 0, l4, 0, FlowKey.TCP_FIN | FlowKey.TCP_ACK | 0x08, 60, 0);
        w.opened(PacketLogWriter.PASS, 1, A, 0, B, 0, l4, 0, 0, 60, 0);
        assertThat(lines(w)).extracting(l -> l.substring(l.lastIndexOf(' ') + 1)).containsExactly("SA", "AFP", "-");
    }

    @Test
    void aWorkerOverItsRateLimitCountsWhatItSuppresses() {
        PacketLogWriter w = new PacketLogWriter(10);
        long l4 = FlowKey.l4Word(1000, 53, FlowKey.PROTO_UDP, 4, 1);
        for (int i = 0; i < 25; i++) {
            w.opened(PacketLogWriter.PASS, 1, A, 0, B, 0, l4, 0, 0, 60, 1_000);
        }
        assertThat(w.counters().snapshot()).containsExactly(10, 15, 0);
        // half a second later five more tokens are there
        for (int i = 0; i < 8; i++) {
            w.opened(PacketLogWriter.PASS, 1, A, 0, B, 0, l4, 0, 0, 60, 1_500);
        }
        assertThat(w.counters().snapshot()).containsExactly(15, 18, 0);
        assertThat(lines(w)).hasSize(15);
    }

    @Test
    void aFullRingLosesLinesInsteadOfWaiting() {
        PacketLogWriter w = new PacketLogWriter(PacketLogConfig.MAX_LINES_PER_SECOND);
        long l4 = FlowKey.l4Word(1000, 53, FlowKey.PROTO_UDP, 4, 1);
        int offered = PacketLogWriter.RING_CAPACITY + 100;
        for (int i = 0; i < offered; i++) {
            w.opened(PacketLogWriter.PASS, 1, A, 0, B, 0, l4, 0, 0, 60, 0);
        }
        assertThat(w.counters().snapshot()).containsExactly(PacketLogWriter.RING_CAPACITY, 0, 100);
        assertThat(lines(w)).hasSize(PacketLogWriter.RING_CAPACITY);
        w.opened(PacketLogWriter.PASS, 1, A, 0, B, 0, l4, 0, 0, 60, 0);
        assertThat(lines(w)).as("a drained ring takes lines again").hasSize(1);
    }

    @Test
    void theFileRotatesBySizeAndKeepsItsCount() throws IOException {
        Path file = dir.resolve("dfwpktlogs.log");
        RotatingFile out = new RotatingFile(file, 1024, 2);
        String line = "x".repeat(99); // 100 bytes with its newline
        for (int i = 0; i < 35; i++) {
            out.write(line + (char) ('a' + i % 26), 0);
        }
        out.close();
        assertThat(Files.size(file)).isLessThanOrEqualTo(1024);
        assertThat(Files.size(dir.resolve("dfwpktlogs.log.1"))).isEqualTo(1010);
        assertThat(Files.exists(dir.resolve("dfwpktlogs.log.2"))).isTrue();
        assertThat(Files.exists(dir.resolve("dfwpktlogs.log.3"))).as("only two rotated files are kept").isFalse();
        assertThat(Files.readAllLines(file)).hasSize(5);
        assertThat(Files.readAllLines(dir.resolve("dfwpktlogs.log.2")).getFirst()).as("the eleventh line")
                .endsWith("k");
    }

    @Test
    void syslogMessagesAreRfc5424() {
        assertThat(SyslogMessage.of("esx-1", "a line", WALL))
                .isEqualTo("<134>1 2026-12-03T05:30:00.125Z esx-1 edp - FIREWALL_PKTLOG - a line");
    }
}
