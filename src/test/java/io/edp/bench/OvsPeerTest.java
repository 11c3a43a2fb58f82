package io.edp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code bench afpacket --peer ovs} against the real Open vSwitch: its userspace datapath forwards the benchmark's
 * frames between the veths with either pipeline, and the bench's JSON holds both forwarders' rows. Counts, not
 * rates: the machine may be busy.
 */
class OvsPeerTest {

    private static final int FRAMES = 100;
    private static final int FLOWS = 10;

    @ParameterizedTest
    @EnumSource(Pipeline.class)
    void openVswitchForwardsEveryFrameBetweenTheVeths(Pipeline pipeline) {
        try (VethLab lab = new VethLab("ovs")) {
            VethLab.ForwardingPath path = lab.forwardingPath();
            try (OvsForwarder ovs = new OvsForwarder(path.ingress(), path.egress(), pipeline, -1)) {
                // fewer frames than the socket buffer of Open vSwitch's port holds, so none is lost while it waits
                // for a CPU
                lab.trafgen(path.generator(), VethLab.GENERATOR_DEVICE, new TrafgenProfile(FLOWS, 64, 0), FRAMES);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (lab.counter(null, path.egress(), "tx_packets") < FRAMES && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // leave the CPUs to Open vSwitch
                }
                assertThat(lab.counter(null, path.egress(), "tx_packets")).isEqualTo(FRAMES);
                assertThat(lab.counter(path.sink(), VethLab.SINK_DEVICE, "rx_packets")).isEqualTo(FRAMES);
                // the engine's work commits each flow to the connection tracker; plain forwarding tracks nothing
                assertThat(ovs.connections()).isEqualTo(pipeline == Pipeline.ENGINE_WORK ? FLOWS : 0);
            }
        }
    }

    @Test
    void theBenchMeasuresBothForwardersInEveryCaseAndWritesThemToItsJson() throws Exception {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int status = AfPacketBench.run(
                new String[] {"--peer", "ovs", "--seconds", "1", "--frames", "64", "--flows", "1"},
                new PrintStream(out), new PrintStream(err), "ovs");
        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();

        AfPacketBench.PeerReport report = JsonMapper.builder().build()
                .readValue(Path.of("target", "bench", "afpacket.json").toFile(), AfPacketBench.PeerReport.class);
        // plain at max, the engine's work at max and at the rate Open vSwitch forwarded
        assertThat(report.comparisons()).extracting(AfPacketBench.Comparison::pipeline)
                .containsExactly("plain", "engine-work", "engine-work");
        assertThat(report.comparisons().getLast().offered_rate()).endsWith("pps");
        for (AfPacketBench.Comparison c : report.comparisons()) {
            assertThat(List.of(c.edp().forwarder(), c.ovs().forwarder())).satisfiesExactly(
                    edp -> assertThat(edp).isEqualTo(c.pipeline().equals("plain") ? "drivers" : "engine EDP_STANDARD"),
                    ovs -> assertThat(ovs).isEqualTo("ovs"));
            assertThat(List.of(c.edp(), c.ovs())).allSatisfy(r -> {
                assertThat(r.forwarded_mpps()).isPositive();
                assertThat(r.cpu_ns_per_packet()).isPositive();
            });
            assertThat(c.forwarded_ratio()).isPositive();
        }
        assertThat(report.summary()).hasSize(3);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("median [min–max] over 1 round(s), EDP / OVS:");
    }
}
