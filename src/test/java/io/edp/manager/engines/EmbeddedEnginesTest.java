package io.edp.manager.engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.Mode;
import io.edp.engine.TestTopology;
import io.edp.engine.Traffic;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.packet.Frames;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Verdict;
import io.edp.manager.database.DataDirectoryProperties;
import io.edp.manager.host.pnic.NicConfinement;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A push that the running engine cannot take live rebuilds it, and the new engine keeps the connections; ports open
 * through the confined drivers.
 */
class EmbeddedEnginesTest {

    private static final int VM_A = 0x0A000001;
    private static final int VM_B = 0x0A000002;
    private static final long VM_A_MAC = 0x020000000001L;
    private static final long VM_B_MAC = 0x0200000000AAL;

    /** No host here is placed AGENT. */
    private static final RemoteEngines NO_AGENTS = new RemoteEngines() {
        @Override
        public Optional<HostEngine> engine(UUID hostId) {
            return Optional.empty();
        }

        @Override
        public Set<UUID> hosts() {
            return Set.of();
        }

        @Override
        public OptionalLong generation(UUID hostId) {
            return OptionalLong.empty();
        }
    };

    private final EmbeddedEngines engines =
            new EmbeddedEngines(event -> { }, new NicConfinement(
                    new EngineProperties(true, 4096, 65536, false, null, null, null),
                    new DataDirectoryProperties(Path.of("target", "embedded-engines-test"))).drivers(), NO_AGENTS);
    private final UUID host = UUID.randomUUID();

    @Test
    void aRebuildKeepsTheConnectionTableSoRepliesStillPass() {
        EngineConfig config = TestTopology.config(Mode.EDP_STANDARD)
                .rule(FirewallRule.of(1, "10.0.0.1/32", "10.0.0.2/32", 0, Verdict.ALLOW))
                .rule(FirewallRule.of(99, "any", "any", 0, Verdict.DROP))
                .build();
        try {
            engines.push(new HostDataPath(host, "esx-1", 1, config));
            Engine first = running(host);
            send(first, 1, Frames.ethernet(VM_B_MAC, VM_A_MAC).ipv4(17, VM_A, VM_B, 64, 0, 8).udp(40000, 53, 0));
            Traffic.drained(first, 1);

            engines.push(new HostDataPath(host, "esx-1", 2, config.toBuilder().workers(0, 2).build()));
            Engine second = running(host);
            send(second, 0, Frames.ethernet(VM_A_MAC, VM_B_MAC).vlan(0x8100, 10).ipv4(17, VM_B, VM_A, 64, 0, 8)
                    .udp(53, 40000, 0));
            Traffic.drained(second, 1);

            assertThat(second).isNotSameAs(first);
            assertThat(second.workerCount()).isEqualTo(2);
            assertThat(TestTopology.nic(second, 1).sink().packets()).as("the reply reached VM-A").isEqualTo(1);
        } finally {
            engines.remove(host);
        }
    }

    @Test
    void aPcapPortOpensOnlyInsideThePcapDirectoryWhereItsRelativeNamesResolve(@TempDir Path data) throws Exception {
        var confined = new EmbeddedEngines(event -> { }, new NicConfinement(
                new EngineProperties(true, 4096, 65536, true, null, null, null), new DataDirectoryProperties(data))
                .drivers(), NO_AGENTS);
        var outside = Files.writeString(data.resolve("shadow"), "root:x:0:0");
        try {
            assertThatThrownBy(() -> confined.push(new HostDataPath(host, "esx-1", 1, pcapEngine(outside.toString()))))
                    .hasMessageContaining("edp.engines.pcap-dir");
            assertThat(outside).hasContent("root:x:0:0");
            assertThat(confined.engine(host)).isEmpty();

            confined.push(new HostDataPath(host, "esx-1", 2, pcapEngine("capture.pcap")));
            assertThat(data.resolve("pcap").resolve("capture.pcap")).exists();
        } finally {
            confined.remove(host);
        }
    }

    private static EngineConfig pcapEngine(String txFile) {
        return EngineConfig.builder().mode(Mode.EDP_STANDARD).mbufs(4096)
                .port(new PortConfig(0, "uplink0", 0, 1, 1, "pcap", Map.of("txFile", txFile))).build();
    }

    private Engine running(UUID hostId) {
        return ((InProcessEngine) engines.engine(hostId).orElseThrow()).engine();
    }

    private static void send(Engine engine, int port, Frames frame) {
        byte[] bytes = frame.bytes();
        LoopbackNic nic = TestTopology.nic(engine, port);
        while (!nic.inject(MemorySegment.ofArray(bytes), 0, bytes.length)) {
            Thread.onSpinWait();
        }
    }
}
