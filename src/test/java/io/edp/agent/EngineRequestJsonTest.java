package io.edp.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.edp.engine.capture.CaptureFilter;
import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.slowpath.Cidr;
import io.edp.engine.slowpath.ConnectionFilter;
import io.edp.manager.engines.TrafficRun;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;

/** Every request to an agent's engine, and the answers that carry records, read back as they were written. */
class EngineRequestJsonTest {

    @Test
    void everyRequestReadsBackEqualInADesiredState() {
        var profile = new TrafficProfile(100, 64, 10_000, 100, 0, 0, 0, Duration.ofSeconds(3), "02:00:00:00:00:aa",
                "00:50:56:aa:bb:01", 10, "10.0.0.0", "10.128.0.0", 1, 0, 0);
        List<EngineRequest> requests = List.of(new EngineRequest.FlushFlowCaches(), new EngineRequest.TopFlows(),
                new EngineRequest.RuleStats(), new EngineRequest.ConnectionStats(),
                new EngineRequest.ListConnections(ConnectionFilter.tuple(6, "10.0.0.1", 1234, "10.0.0.2", 80)),
                new EngineRequest.ClearConnections(ConnectionFilter.ALL), new EngineRequest.IpfixStats(),
                new EngineRequest.PacketLogStats(), new EngineRequest.StartTraffic("vmnic0", profile),
                new EngineRequest.Traffic(), new EngineRequest.StopTraffic(), new EngineRequest.FlowReceived(7),
                new EngineRequest.StartCapture(UUID.randomUUID(), new CaptureSpec(2, CaptureSpec.Direction.RX,
                        new CaptureFilter(List.of(Cidr.parse("10.1.0.0/16", "a"), Cidr.parse("2001:db8::/32", "b")),
                                List.of(53), 17), 128, 50, Duration.ofSeconds(60), 1024, true,
                        CaptureSpec.Format.PCAPNG)),
                new EngineRequest.Capture(UUID.randomUUID()), new EngineRequest.StopCapture(UUID.randomUUID()),
                new EngineRequest.RemoveCapture(UUID.randomUUID()), new EngineRequest.CaptureFile(UUID.randomUUID()));
        var state = new AgentDesiredState(UUID.randomUUID(), "esx-01", 3, null).withRequests(requests.stream()
                .map(request -> new EngineRequest.Queued(UUID.randomUUID(), request)).toList());

        var json = EngineJson.MAPPER.writeValueAsString(state);
        var read = EngineJson.MAPPER.readValue(json, AgentDesiredState.class);

        assertThat(read.requests()).isEqualTo(state.requests());
        assertThat(json).contains("\"kind\":\"FLUSH_FLOW_CACHES\"").contains("\"kind\":\"START_TRAFFIC\"")
                .contains("\"kind\":\"START_CAPTURE\"").contains("\"kind\":\"CAPTURE_FILE\"");
    }

    @Test
    void aTraceCarriesItsFrameAndAnAnswerItsRecord() {
        var trace = new EngineRequest.Trace(1, new byte[] {1, 2, 3});
        var read = (EngineRequest.Trace) EngineJson.MAPPER.readValue(
                EngineJson.MAPPER.writerFor(EngineRequest.class).writeValueAsString(trace), EngineRequest.class);
        assertThat(read.port()).isEqualTo(1);
        assertThat(read.frame()).containsExactly(1, 2, 3);

        var run = new TrafficRun("vmnic0", true, Instant.parse("2026-12-03T10:00:00Z"),
                Instant.parse("2026-12-03T10:00:01Z"), 100, 98, Map.of("FIREWALL", 2L), 0, 0,
                new TrafficProfile(10, 64, 0, 100, 0, 0, 100, null, "02:00:00:00:00:aa", "00:50:56:aa:bb:01", 0,
                        "10.0.0.0", "10.128.0.0", 1, 0, 0));
        var answer = EngineJson.MAPPER.readValue(EngineJson.MAPPER.writeValueAsString(AgentAnswer.of(run)),
                AgentAnswer.class);
        assertThat(EngineJson.MAPPER.convertValue(answer.result(), new TypeReference<TrafficRun>() { }))
                .isEqualTo(run);
        assertThat(EngineJson.MAPPER.readValue(EngineJson.MAPPER.writeValueAsString(AgentAnswer.of(null)),
                AgentAnswer.class).result().isNull()).as("no result").isTrue();
    }
}
