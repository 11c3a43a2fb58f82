package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.FlowFrames.Ingress;
import io.edp.engine.IpfixCapture.FlowRecord;
import io.edp.engine.ModelNetwork.Flow;
import io.edp.engine.ModelNetwork.Pair;
import io.edp.engine.ModelNetwork.Protocol;
import io.edp.engine.ModelNetwork.Tagging;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.telemetry.FlowEndReason;
import io.edp.engine.telemetry.IpfixConfig;
import io.edp.engine.telemetry.IpfixStats;
import io.edp.engine.time.ManualClock;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A TCP flow is exported at its end: the records of a direction that sent a FIN or an RST carry flowEndReason 3
 * (end of flow, RFC 5102) at that packet, in LEGACY (its flow table) as in EDP_STANDARD (the cache entry's
 * counters and the flow table's SYN/FIN/RST, both ended by the packet). The other direction of an RST-ended
 * connection has no end of its own: it goes out at its idle timeout (1). IPv4 and IPv6, through a real nfcapd
 * (exact packets and bytes per 5-tuple) and tshark (the reasons as it decodes them, no malformed message).
 */
class FlowEndExportTest {

    private static final int IDLE_MILLIS = 10_000;

    @TempDir
    Path temp;

    private int seq;

    @ParameterizedTest
    @EnumSource(value = Mode.class, names = {"LEGACY", "EDP_STANDARD"})
    void aFinOrRstEndsTheFlowWithEndReasonThreeAndTheOtherDirectionOfAnRstIdlesOut(Mode mode) {
        List<Flow> fin = List.of(new Flow(Protocol.TCP, Pair.A_B, false, 0), new Flow(Protocol.TCP, Pair.A_B, true, 1));
        List<Flow> rst = List.of(new Flow(Protocol.TCP, Pair.A_B, false, 2), new Flow(Protocol.TCP, Pair.A_B, true, 3));
        Map<String, List<Long>> sent = new TreeMap<>();
        Map<String, Integer> lastReason = new HashMap<>();
        ManualClock clock = new ManualClock(1_000_000_000L);
        try (Nfcapd nfcapd = new Nfcapd(temp.resolve("flows")); IpfixCapture capture = new IpfixCapture()) {
            // rule 7 allows everything; the cache's entries outlive the idle timeout, so only the timeout ends them
            EngineConfig config = ModelNetwork.config(mode, List.of(6), ModelNetwork.INITIAL_ROUTES,
                    ModelNetwork.CACHE_SETTINGS.get(1)).toBuilder()
                    .ipfix(IpfixConfig.to(List.of(nfcapd.address(), capture.address()), 7)
                            .withTimeouts(3_600_000, IDLE_MILLIS))
                    .build();
            Engine engine = Engine.startStepped(config, NicDrivers.withLoopback(), clock);
            try {
                for (Flow f : fin) {
                    handshakeAndData(engine, f, sent);
                    send(engine, f, false, 3, sent);
                    send(engine, f, true, 3, sent);
                    lastReason.put(tuple(f, false), FlowEndReason.END_OF_FLOW);
                    lastReason.put(tuple(f, true), FlowEndReason.END_OF_FLOW);
                }
                for (Flow f : rst) {
                    handshakeAndData(engine, f, sent);
                    send(engine, f, false, 4, sent);
                    lastReason.put(tuple(f, false), FlowEndReason.END_OF_FLOW);
                    lastReason.put(tuple(f, true), FlowEndReason.IDLE_TIMEOUT);
                }
                clock.advance(Duration.ofMillis(IDLE_MILLIS + 1));
                engine.step(); // the sweep: the responders' directions of the RST-ended connections idle out
            } finally {
                engine.close();
            }
            IpfixStats stats = engine.ipfixStats();
            assertThat(stats.recordsDropped() + stats.exportErrors()).isZero();
            capture.awaitMessages(stats.messagesSent() / 2);
            List<FlowRecord> records = capture.records();
            assertThat(IpfixCapture.sums(records)).as("packets and bytes per 5-tuple").isEqualTo(sent);
            Map<String, Set<Integer>> reasons = records.stream().collect(Collectors.groupingBy(FlowRecord::fiveTuple,
                    TreeMap::new, Collectors.mapping(FlowRecord::endReason, Collectors.toCollection(TreeSet::new))));
            Map<String, Set<Integer>> expected = new TreeMap<>();
            lastReason.forEach((tuple, reason) -> expected.put(tuple, Set.of(reason)));
            assertThat(reasons).as("every record of a direction ends as its flow ended (%s)", mode)
                    .isEqualTo(expected);

            List<Map<String, String>> rows = nfcapd.stopAndRead(stats.recordsExported());
            assertThat(FlowExportTest.nfdumpSums(rows)).as("nfdump, summed per 5-tuple").isEqualTo(sent);

            Path pcap = temp.resolve("ipfix.pcap");
            int port = capture.address().getPort();
            capture.writeCapture(pcap, port);
            String decoded = Tshark.decode(pcap, port);
            assertThat(decoded).doesNotContainIgnoringCase("malformed").doesNotContain("Expert Info");
            long ended = Tshark.fields(pcap, port, "cflow.flow_end_reason").get("cflow.flow_end_reason").stream()
                    .filter(reason -> reason.equals("3")).count();
            assertThat(ended).as("records tshark reads as ended by the flow")
                    .isEqualTo(records.stream().filter(r -> r.endReason() == FlowEndReason.END_OF_FLOW).count())
                    .isGreaterThanOrEqualTo(6);
        }
    }

    /** SYN, SYN-ACK, then three data packets each way. */
    private void handshakeAndData(Engine engine, Flow f, Map<String, List<Long>> sent) {
        send(engine, f, false, 1, sent);
        send(engine, f, true, 2, sent);
        for (int p = 0; p < 3; p++) {
            send(engine, f, false, 0, sent);
            send(engine, f, true, 0, sent);
        }
    }

    private void send(Engine engine, Flow f, boolean reply, int kind, Map<String, List<Long>> sent) {
        Ingress frame = FlowFrames.packet(f, reply, kind, Tagging.LINK, 64, seq++);
        LoopbackNic nic = (LoopbackNic) engine.driver(frame.port());
        assertThat(nic.inject(MemorySegment.ofArray(frame.frame()), 0, frame.frame().length)).isTrue();
        engine.step();
        sent.merge(tuple(f, reply), List.of(1L, (long) frame.frame().length),
                (a, b) -> List.of(a.get(0) + b.get(0), a.get(1) + b.get(1)));
    }

    private static String tuple(Flow f, boolean reply) {
        ModelNetwork.Host from = FlowFrames.sender(f, reply);
        ModelNetwork.Host to = FlowFrames.receiver(f, reply);
        return FiveTuples.key("TCP", address(from, f.ipv6()), reply ? f.destinationPort() : f.sourcePort(),
                address(to, f.ipv6()), reply ? f.sourcePort() : f.destinationPort());
    }

    private static String address(ModelNetwork.Host h, boolean ipv6) {
        return IpfixCapture.address(ipv6
                ? java.nio.ByteBuffer.allocate(16).putLong(h.ipv6Hi).putLong(h.ipv6Lo).array()
                : java.nio.ByteBuffer.allocate(4).putInt(h.ipv4).array());
    }
}
