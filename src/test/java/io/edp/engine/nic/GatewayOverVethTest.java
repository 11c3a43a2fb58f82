package io.edp.engine.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.bench.HostCommand;
import io.edp.bench.VethLab;
import io.edp.engine.AdapterType;
import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.Mode;
import io.edp.engine.VnicConfig;
import io.edp.engine.slowpath.Gateway;
import io.edp.engine.slowpath.Route;
import io.edp.engine.time.SystemClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two Linux network stacks (namespaces vm-a 10.0.0.1 / fd00::1 and vm-b 10.0.0.2 / fd00::2, VLAN 10, gateway
 * 10.0.0.254 / fd00::fe) attached by veth pairs to the engine's af_packet ports: they resolve each other by ARP or
 * neighbor discovery (the request or the multicast solicitation flooded, the reply switched) and ping each other,
 * ping their gateway (ARP / neighbor solicitation and echo answered by the engine), and a ping with TTL / hop limit
 * 1 through the router gets ICMP / ICMPv6 time exceeded from the gateway address.
 */
class GatewayOverVethTest {

    private static final String A_MAC = "02:00:00:00:0a:01";
    private static final String B_MAC = "02:00:00:00:0b:01";
    private static VethLab lab;
    private static String a;
    private static String b;
    private static String aPort;
    private static String bPort;

    @BeforeAll
    static void namespaces() {
        lab = new VethLab("edp-gw");
        a = lab.namespace("a");
        b = lab.namespace("b");
        aPort = lab.veth("ga", a, "eth0");
        bPort = lab.veth("gb", b, "eth0");
        address(a, A_MAC, "10.0.0.1/24", "fd00::1/64");
        address(b, B_MAC, "10.0.0.2/24", "fd00::2/64");
    }

    @AfterAll
    static void removeNamespaces() {
        if (lab != null) {
            lab.close();
        }
    }

    /** The namespace's end with its MAC, IPv4 and IPv6 addresses (no duplicate detection) and default routes. */
    private static void address(String namespace, String mac, String ipv4, String ipv6) {
        HostCommand.run("ip", "netns", "exec", namespace, "sysctl", "-q", "-w", "net.ipv6.conf.eth0.disable_ipv6=0");
        HostCommand.run("ip", "-n", namespace, "link", "set", "eth0", "address", mac);
        HostCommand.run("ip", "-n", namespace, "addr", "add", ipv4, "dev", "eth0");
        HostCommand.run("ip", "-n", namespace, "-6", "addr", "add", ipv6, "dev", "eth0", "nodad");
        HostCommand.run("ip", "-n", namespace, "route", "add", "default", "via", "10.0.0.254");
        HostCommand.run("ip", "-n", namespace, "-6", "route", "add", "default", "via", "fd00::fe");
    }

    private static Engine engine() {
        EngineConfig config = EngineConfig.builder().mode(Mode.EDP_STANDARD)
                .port(new PortConfig(1, "vm-a", 0, 1, 1, "af_packet", Map.of("interface", aPort)))
                .port(new PortConfig(2, "vm-b", 0, 1, 1, "af_packet", Map.of("interface", bPort)))
                .vnic(new VnicConfig("vm-a", "a", 1, A_MAC, 10, AdapterType.VMXNET3))
                .vnic(new VnicConfig("vm-b", "b", 2, B_MAC, 10, AdapterType.VMXNET3))
                .gateway(new Gateway(10, "10.0.0.254", "fd00::fe"))
                .route(new Route("10.0.9.0/24", B_MAC, 2, 0))
                .route(new Route("fd09::/64", B_MAC, 2, 0))
                .build();
        return Engine.start(config, NicDrivers.standard(), SystemClock.INSTANCE);
    }

    /** What an IP version's run pings and expects. */
    record Family(String flag, String peer, String gateway, String beyondRouter, String timeExceeded) {

        /** The router's answers that resolve its MAC: ARP replies, or neighbor advertisements. */
        long resolutions(EngineStats stats) {
            return flag.equals("-4") ? stats.routerReplies().arpReplies()
                    : stats.routerReplies().neighborAdvertisements();
        }
    }

    static Stream<Family> families() {
        return Stream.of(new Family("-4", "10.0.0.2", "10.0.0.254", "10.0.9.9", "Time to live exceeded"),
                new Family("-6", "fd00::2", "fd00::fe", "fd09::9", "Time exceeded: Hop limit"));
    }

    @ParameterizedTest
    @MethodSource("families")
    void namespacesPingEachOtherAndTheirGatewayAndTtlOneGetsTimeExceeded(Family ip) {
        try (Engine engine = engine()) {
            Ping toB = ping(a, ip.flag(), "-c", "3", "-i", "0.2", "-W", "2", ip.peer());
            Ping toGateway = ping(b, ip.flag(), "-c", "3", "-i", "0.2", "-W", "2", ip.gateway());
            Ping expiring = ping(a, ip.flag(), "-c", "1", "-t", "1", "-W", "2", ip.beyondRouter());
            EngineStats stats = engine.stats();

            assertThat(toB.exit()).as(toB.output()).isZero();
            assertThat(toB.output()).contains("3 packets transmitted, 3 received");
            assertThat(toGateway.exit()).as(toGateway.output()).isZero();
            assertThat(toGateway.output()).contains("3 packets transmitted, 3 received");
            assertThat(expiring.output()).as("ping -t 1 through the router")
                    .contains("From " + ip.gateway() + " icmp_seq=1 " + ip.timeExceeded());
            assertThat(stats.flood().frames()).as("vm-a's ARP request / multicast neighbor solicitation for vm-b "
                    + "was flooded").isPositive();
            assertThat(ip.resolutions(stats)).as("the gateway's MAC resolved").isPositive();
            assertThat(stats.routerReplies().echoReplies()).isEqualTo(3);
            assertThat(stats.routerReplies().timeExceeded()).isEqualTo(1);
            assertThat(HostCommand.run("ip", "-n", a, ip.flag(), "neigh", "show", ip.peer())).contains(B_MAC);
            assertThat(HostCommand.run("ip", "-n", b, ip.flag(), "neigh", "show", ip.gateway()))
                    .contains(EngineConfig.DEFAULT_ROUTER_MAC);
        }
    }

    private record Ping(int exit, String output) {
    }

    private static Ping ping(String namespace, String... arguments) {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace, "ping", "-n"));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " hung");
            }
            return new Ping(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
