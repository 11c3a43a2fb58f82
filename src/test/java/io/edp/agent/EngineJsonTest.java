package io.edp.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.edp.engine.AdapterType;
import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.FlowCacheConfig;
import io.edp.engine.Mode;
import io.edp.engine.VnicConfig;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.packetlog.PacketLogConfig;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Gateway;
import io.edp.engine.slowpath.PortRange;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.Verdict;
import io.edp.engine.telemetry.IpfixConfig;
import io.edp.engine.time.SystemClock;
import io.edp.engine.tlb.TlbConfig;
import org.junit.jupiter.api.Test;

/** What the manager sends an agent and what the agent reports back read back equal to what was written. */
class EngineJsonTest {

    static EngineConfig everyFeature() {
        return EngineConfig.builder()
                .mode(Mode.EDP_STANDARD)
                .workers(0, 2)
                .port(new PortConfig(0, "uplink", 0, 2, 2, "loopback", Map.of("steering", "netqueue", "rss", "true")))
                .port(PortConfig.loopback(1, "web-eth1", 0, 1, 2))
                .vnic(new VnicConfig("web-eth1", "web", 1, "00:50:56:00:00:01", 10, AdapterType.VMXNET3))
                .rule(new FirewallRule(7, "10.0.0.0/8", "any", 6, PortRange.ANY, new PortRange(80, 443), Set.of(1),
                        Verdict.DROP, true))
                .route(new Route("0.0.0.0/0", "00:50:56:aa:bb:cc", 0, 10))
                .gateway(new Gateway(10, "10.0.10.1", "fd00:10::1"))
                .flowCache(new FlowCacheConfig(4096, Duration.ofMillis(500), Duration.ofSeconds(8), 16))
                .tlb(TlbConfig.DEFAULTS)
                .ipfix(new IpfixConfig(List.of(new InetSocketAddress(InetAddress.ofLiteral("192.0.2.9"), 4739),
                        new InetSocketAddress(InetAddress.ofLiteral("2001:db8::9"), 4739)), 42, 60_000, 15_000, 0,
                        65_536, 1_500, 60_000))
                .packetLog(new PacketLogConfig(true, List.of(new PacketLogConfig.SyslogServer("192.0.2.8", 514,
                        PacketLogConfig.Transport.UDP)), "/var/log/edp/dfw.log", 1 << 20, 3, 500))
                .conntrackCapacity(4096)
                .mbufs(2048)
                .build();
    }

    @Test
    void aConfigurationWithEveryFeatureReadsBackEqual() {
        var config = everyFeature();
        var json = EngineJson.MAPPER.writeValueAsString(EngineJson.tree(config));
        assertThat(EngineJson.config(EngineJson.MAPPER.readTree(json))).isEqualTo(config);
    }

    @Test
    void theStatisticsOfARunningEngineReadBackEqual() {
        try (var engine = Engine.start(everyFeature().toBuilder().ipfix(IpfixConfig.DISABLED)
                .packetLog(PacketLogConfig.DISABLED).build(), NicDrivers.withLoopback(), SystemClock.INSTANCE)) {
            var stats = engine.stats();
            assertThat(EngineJson.stats(EngineJson.tree(stats))).isEqualTo(stats);
        }
    }

    @Test
    void anUnknownMemberIsRefusedWithItsName() {
        var json = (tools.jackson.databind.node.ObjectNode) EngineJson.tree(everyFeature());
        json.put("turbo", true);
        assertThatThrownBy(() -> EngineJson.config(json)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("turbo");
    }
}
