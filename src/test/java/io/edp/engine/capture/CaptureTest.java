package io.edp.engine.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.bench.HostCommand;
import io.edp.engine.Await;
import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.Mode;
import io.edp.engine.TestTopology;
import io.edp.engine.capture.CaptureSpec.Direction;
import io.edp.engine.capture.CaptureStats.EndReason;
import io.edp.engine.capture.CaptureStats.State;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.Cidr;
import io.edp.engine.slowpath.MacAddress;
import io.edp.engine.slowpath.Route;
import io.edp.engine.time.ManualClock;
import io.edp.engine.trace.PacketFields;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Live captures on an engine, read back by tshark: received frames as they arrived, transmitted ones as rewritten
 * (the same bytes for a flow's slow-path first packet and its fast-path later ones), the direction and the filter
 * honoured, the limits ending the capture, a full ring counting drops without holding the worker back.
 */
class CaptureTest {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(0);

    /** TestTopology with 10.0.1.0/24 routed out of port 2 on VLAN 20. */
    private static EngineConfig config(Mode mode) {
        return TestTopology.config(mode).route(new Route("10.0.1.0/24", TestTopology.GATEWAY_MAC, 2, 20)).build();
    }

    private Engine stepped(Mode mode) {
        return Engine.startStepped(config(mode), NicDrivers.withLoopback(), clock);
    }

    /** A frame to the router from 10.0.0.{host}, to 10.0.1.1 on {@code protocol} ports {@code port} → 4000. */
    private static byte[] frame(int host, int protocol, int port) {
        return new PacketFields(MacAddress.parse("02:00:00:00:00:aa", "mac"),
                MacAddress.parse(EngineConfig.DEFAULT_ROUTER_MAC, "mac"), List.of(10),
                InetAddress.ofLiteral("10.0.0." + host), InetAddress.ofLiteral("10.0.1.1"), protocol, port, 4000,
                FlowKey.TCP_SYN, 64, 80).frame();
    }

    private static void inject(Engine engine, byte[]... frames) {
        for (byte[] f : frames) {
            assertThat(TestTopology.nic(engine, 0).inject(MemorySegment.ofArray(f), 0, f.length)).isTrue();
        }
    }

    private static List<String> tshark(Path file, String... fields) {
        String[] command = new String[4 + 2 * fields.length];
        command[0] = "tshark";
        command[1] = "-r";
        command[2] = file.toString();
        command[3] = "-Tfields";
        for (int i = 0; i < fields.length; i++) {
            command[4 + 2 * i] = "-e";
            command[5 + 2 * i] = fields[i];
        }
        return HostCommand.run(command).lines().toList();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void capturesWhatAPortReceivesAndWhatAnotherTransmitsAsTsharkReadsThem(Mode mode) {
        try (Engine engine = stepped(mode)) {
            CaptureSession received = engine.capture(CaptureSpec.of(0, Direction.RX, CaptureFilter.ALL, 100, MINUTE),
                    dir.resolve("rx.pcap"));
            CaptureSession sent = engine.capture(CaptureSpec.of(2, Direction.TX, CaptureFilter.ALL, 100, MINUTE),
                    dir.resolve("tx.pcap"));
            CaptureSession nothing = engine.capture(CaptureSpec.of(2, Direction.RX, CaptureFilter.ALL, 100, MINUTE),
                    dir.resolve("none.pcap"));
            // one UDP flow three times (its first packet runs the IOChain, the others hit the flow cache), one TCP
            inject(engine, frame(1, FlowKey.PROTO_UDP, 1000), frame(2, FlowKey.PROTO_TCP, 2000));
            engine.step();
            inject(engine, frame(1, FlowKey.PROTO_UDP, 1000), frame(1, FlowKey.PROTO_UDP, 1000));
            engine.step();

            assertThat(received.stop().captured()).isEqualTo(4);
            assertThat(sent.stop().captured()).isEqualTo(4);
            assertThat(nothing.stop().captured()).as("port 2 received nothing").isZero();
            assertThat(tshark(dir.resolve("rx.pcap"), "vlan.id", "ip.src", "ip.dst", "ip.ttl", "udp.srcport",
                    "tcp.srcport")).containsExactly("10\t10.0.0.1\t10.0.1.1\t64\t1000\t",
                    "10\t10.0.0.2\t10.0.1.1\t64\t\t2000", "10\t10.0.0.1\t10.0.1.1\t64\t1000\t",
                    "10\t10.0.0.1\t10.0.1.1\t64\t1000\t");
            // routed: VLAN 20, TTL 63, router MAC as source; the fast path's frames are the slow path's bytes
            assertThat(tshark(dir.resolve("tx.pcap"), "vlan.id", "eth.src", "ip.src", "ip.ttl", "udp.srcport",
                    "tcp.srcport", "frame.len")).containsExactly(
                    "20\t" + EngineConfig.DEFAULT_ROUTER_MAC + "\t10.0.0.1\t63\t1000\t\t80",
                    "20\t" + EngineConfig.DEFAULT_ROUTER_MAC + "\t10.0.0.2\t63\t\t2000\t80",
                    "20\t" + EngineConfig.DEFAULT_ROUTER_MAC + "\t10.0.0.1\t63\t1000\t\t80",
                    "20\t" + EngineConfig.DEFAULT_ROUTER_MAC + "\t10.0.0.1\t63\t1000\t\t80");
            assertThat(tshark(dir.resolve("none.pcap"), "frame.len")).isEmpty();
        }
    }

    @Test
    void bothDirectionsOfAPortAndTheFilterOnAddressPortAndProtocol() {
        try (Engine engine = stepped(Mode.EDP_STANDARD)) {
            CaptureFilter udpFrom3Or4 = new CaptureFilter(List.of(Cidr.parse("10.0.0.3", "a"),
                    Cidr.parse("10.0.0.4/32", "a")), List.of(), FlowKey.PROTO_UDP);
            CaptureSession filtered = engine.capture(CaptureSpec.of(0, Direction.BOTH, udpFrom3Or4, 100, MINUTE),
                    dir.resolve("filtered.pcap"));
            CaptureFilter port2001 = new CaptureFilter(List.of(Cidr.parse("10.0.1.0/24", "a")), List.of(2001),
                    CaptureFilter.ANY_PROTOCOL);
            CaptureSession byPort = engine.capture(CaptureSpec.of(2, Direction.BOTH, port2001, 100, MINUTE),
                    dir.resolve("port.pcap"));
            inject(engine, frame(3, FlowKey.PROTO_UDP, 2000), frame(3, FlowKey.PROTO_TCP, 2001),
                    frame(4, FlowKey.PROTO_UDP, 2001), frame(5, FlowKey.PROTO_UDP, 2001));
            engine.step();

            assertThat(filtered.stop().captured()).isEqualTo(2);
            assertThat(tshark(dir.resolve("filtered.pcap"), "ip.src", "udp.srcport"))
                    .containsExactly("10.0.0.3\t2000", "10.0.0.4\t2001");
            assertThat(byPort.stop().captured()).isEqualTo(3);
            assertThat(tshark(dir.resolve("port.pcap"), "ip.src", "ip.proto", "vlan.id"))
                    .containsExactly("10.0.0.3\t6\t20", "10.0.0.4\t17\t20", "10.0.0.5\t17\t20");
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aPcapngCaptureOfBothDirectionsMarksEachPacketInboundOrOutbound(Mode mode) {
        try (Engine engine = stepped(mode)) {
            CaptureSession both = engine.capture(CaptureSpec.of(2, Direction.BOTH, CaptureFilter.ALL, 100, MINUTE)
                    .withFormat(CaptureSpec.Format.PCAPNG), dir.resolve("both.pcapng"));
            // routed out of port 2 (transmitted, twice: the slow path's first packet, then the flow cache's)
            inject(engine, frame(1, FlowKey.PROTO_UDP, 1000), frame(1, FlowKey.PROTO_UDP, 1000));
            // received on port 2 as it arrived, then routed back out of it (10.0.1.0/24 is behind port 2)
            byte[] arriving = frame(7, FlowKey.PROTO_TCP, 3000);
            assertThat(TestTopology.nic(engine, 2).inject(MemorySegment.ofArray(arriving), 0, arriving.length))
                    .isTrue();
            engine.step();

            assertThat(both.stop().captured()).isEqualTo(4);
            // 1 inbound, 3 outbound; the interface named after the port, the tags as they were on the wire
            assertThat(tshark(dir.resolve("both.pcapng"), "frame.packet_flags_direction", "frame.interface_name",
                    "ip.src", "vlan.id", "ip.ttl")).containsExactlyInAnyOrder(
                    "0x00000001\tuplink1\t10.0.0.7\t10\t64",
                    "0x00000002\tuplink1\t10.0.0.7\t20\t63",
                    "0x00000002\tuplink1\t10.0.0.1\t20\t63",
                    "0x00000002\tuplink1\t10.0.0.1\t20\t63");
            assertThat(HostCommand.run("capinfos", "-t", dir.resolve("both.pcapng").toString())).contains("pcapng");
        }
    }

    @Test
    void aCaptureEndsAtItsPacketLimitAndAtItsTimeLimitAndWhenStopped() {
        try (Engine engine = stepped(Mode.EDP_STANDARD)) {
            CaptureSession three = engine.capture(CaptureSpec.of(0, Direction.RX, CaptureFilter.ALL, 3, MINUTE),
                    dir.resolve("three.pcap"));
            CaptureSession timed = engine.capture(CaptureSpec.of(0, Direction.RX, CaptureFilter.ALL, 100,
                    Duration.ofSeconds(10)), dir.resolve("timed.pcap"));
            CaptureSession stopped = engine.capture(CaptureSpec.of(0, Direction.RX, CaptureFilter.ALL, 100, MINUTE),
                    dir.resolve("stopped.pcap"));
            for (int i = 0; i < 5; i++) {
                inject(engine, frame(1, FlowKey.PROTO_UDP, 1000 + i));
            }
            engine.step();
            assertThat(three.stats()).extracting(CaptureStats::state, CaptureStats::endReason,
                    CaptureStats::captured).containsExactly(State.ENDED, EndReason.PACKET_LIMIT, 3L);
            // the uplink's two RX queues each keep their order; which three of the five came first is theirs
            assertThat(tshark(dir.resolve("three.pcap"), "udp.srcport")).hasSize(3).doesNotHaveDuplicates()
                    .allSatisfy(port -> assertThat(port).isIn("1000", "1001", "1002", "1003", "1004"));
            assertThat(stopped.stop()).extracting(CaptureStats::state, CaptureStats::endReason)
                    .containsExactly(State.ENDED, EndReason.STOPPED);

            clock.advance(Duration.ofSeconds(10));
            inject(engine, frame(1, FlowKey.PROTO_UDP, 1005));
            engine.step();
            assertThat(timed.stats()).extracting(CaptureStats::state, CaptureStats::endReason,
                    CaptureStats::captured).containsExactly(State.ENDED, EndReason.TIME_LIMIT, 6L);
            assertThat(stopped.stats().captured()).as("nothing after the stop").isEqualTo(5);
            assertThat(tshark(dir.resolve("stopped.pcap"), "udp.srcport")).hasSize(5);
        }
    }

    @Test
    void aFullRingCountsWhatDoesNotFitAndTheWorkerGoesOn() {
        try (Engine engine = stepped(Mode.EDP_STANDARD)) {
            LoopbackNic uplink1 = TestTopology.nic(engine, 2);
            uplink1.captureTransmitted(32);
            CaptureSession small = engine.capture(CaptureSpec.of(0, Direction.RX, CaptureFilter.ALL, 100, MINUTE)
                    .withRingFrames(4).withSnaplen(64), dir.resolve("small.pcap"));
            for (int i = 0; i < 10; i++) {
                inject(engine, frame(1, FlowKey.PROTO_UDP, 1000 + i));
            }
            engine.step(); // one burst of 10 into a ring of 4, drained only after the step

            assertThat(uplink1.takeTransmitted()).as("every frame forwarded").hasSize(10);
            CaptureStats stats = small.stop();
            assertThat(stats.captured()).isEqualTo(4);
            assertThat(stats.dropped()).isEqualTo(6);
            assertThat(tshark(dir.resolve("small.pcap"), "udp.srcport", "frame.len", "frame.cap_len")).hasSize(4)
                    .doesNotHaveDuplicates().allSatisfy(f -> assertThat(f).matches("100\\d\t80\t64"));
        }
    }

    @Test
    void capturesTheTrafficGeneratorsFramesOnAThreadedEngineUntilItsLimit() throws java.io.IOException {
        try (Engine engine = Engine.start(config(Mode.EDP_STANDARD))) {
            CaptureSession session = engine.capture(new CaptureSpec(2, Direction.TX, CaptureFilter.ALL, 128, 500,
                    MINUTE, CaptureSpec.DEFAULT_RING_FRAMES, true, CaptureSpec.Format.PCAP),
                    dir.resolve("generator.pcap"));
            TrafficGenerator generator = TestTopology.nic(engine, 0)
                    .startTraffic(TestTopology.routed(100, 0).withRate(100_000));
            Await.until("the capture ends", () -> session.stats().state() == State.ENDED, Duration.ofSeconds(30));
            generator.stop();

            CaptureStats stats = session.stats();
            assertThat(stats.endReason()).isEqualTo(EndReason.PACKET_LIMIT);
            assertThat(stats.captured()).isEqualTo(500);
            List<String> frames = tshark(dir.resolve("generator.pcap"), "vlan.id", "ip.dst", "ip.ttl");
            assertThat(frames).hasSize(500).allSatisfy(f -> assertThat(f).matches("20\t10\\.128\\.\\d+\\.\\d+\t63"));
            assertThat(Files.size(dir.resolve("generator.pcap"))).isEqualTo(stats.fileBytes());
            assertThat(HostCommand.run("capinfos", dir.resolve("generator.pcap").toString()))
                    .contains("nanoseconds");
        }
    }

    @Test
    void aRunningCapturesFileHoldsWholeRecordsUpToFileBytesAndClosingTheEngineEndsIt() throws java.io.IOException {
        Engine engine = Engine.start(config(Mode.EDP_STANDARD));
        CaptureSession session = engine.capture(CaptureSpec.of(0, Direction.RX, CaptureFilter.ALL, 1_000_000,
                MINUTE), dir.resolve("running.pcap"));
        TrafficGenerator generator = TestTopology.nic(engine, 0)
                .startTraffic(TestTopology.routed(100, 0).withRate(20_000));
        try {
            Await.until("frames written while it runs", () -> session.stats().fileBytes() > 24 + 10 * 80,
                    Duration.ofSeconds(30));
            long length = session.stats().fileBytes();
            byte[] prefix = new byte[(int) length];
            try (var in = Files.newInputStream(dir.resolve("running.pcap"))) {
                assertThat(in.readNBytes(prefix, 0, prefix.length)).isEqualTo(prefix.length);
            }
            Path snapshot = Files.write(dir.resolve("snapshot.pcap"), prefix);
            // tshark fails on a record cut short; the prefix holds whole ones only
            assertThat(tshark(snapshot, "frame.len")).isNotEmpty().allSatisfy(len -> assertThat(len).isNotBlank());
        } finally {
            generator.stop();
            engine.close();
        }
        assertThat(session.stats()).extracting(CaptureStats::state, CaptureStats::endReason)
                .containsExactly(State.ENDED, EndReason.ENGINE_CLOSED);
        assertThat(Files.size(dir.resolve("running.pcap"))).isEqualTo(session.stats().fileBytes());
        assertThat(tshark(dir.resolve("running.pcap"), "frame.len")).hasSize((int) session.stats().captured());
    }
}
