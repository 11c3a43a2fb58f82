package io.edp.engine.nic.loopback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.edp.engine.AdapterType;
import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.Mode;
import io.edp.engine.Traffic;
import io.edp.engine.VnicConfig;
import io.edp.engine.nic.PortConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NetQueue steering switched on by a loopback uplink's driver options, its filters derived from the engine's
 * vNICs: real frames from the uplink's generator through the real engine, counted per RX queue.
 */
class ConfiguredSteeringTest {

    private static final int UPLINK = 0;
    private static final int VLAN = 10;
    private static final String SOURCE_MAC = "02:00:00:00:00:aa";
    private static final int FLOWS = 16;
    private static final int PACKETS = 64;

    private static String mac(String vm) {
        return "02:00:00:00:00:0" + vm;
    }

    /** vNIC {@code vm} ("a", "b", …) on VM port {@code port}, VLAN 10. */
    private static VnicConfig vnic(String vm, int port) {
        return new VnicConfig("vm-" + vm + "-eth0", "vm-" + vm, port, mac(vm), VLAN, AdapterType.VMXNET3);
    }

    private static PortConfig vmPort(int port) {
        return PortConfig.loopback(port, "vm-port" + port, 0, 1, 1);
    }

    /** An uplink with NetQueue steering and the given options, plus one VM port per vNIC ("a" on port 1, …). */
    private static EngineConfig.Builder topology(int uplinkQueues, Map<String, String> steering, String... vms) {
        Map<String, String> options = new HashMap<>(steering);
        options.put("steering", "netqueue");
        EngineConfig.Builder config = EngineConfig.builder().mode(Mode.EDP_STANDARD).mbufs(4096)
                .port(new PortConfig(UPLINK, "uplink0", 0, uplinkQueues, 1, "loopback", options));
        for (int i = 0; i < vms.length; i++) {
            config.port(vmPort(i + 1)).vnic(vnic(vms[i], i + 1));
        }
        return config;
    }

    /**
     * Sends {@code packets} frames of {@code flows} flows from the wire to {@code mac} on {@code vlan}; frames per
     * uplink queue.
     */
    private static long[] send(Engine engine, String mac, int vlan, int flows, int packets) {
        long[] before = uplinkQueuePackets(engine.stats());
        Traffic.sendAll(engine, UPLINK, TrafficProfile.udp().withMacs(SOURCE_MAC, mac).withVlan(vlan)
                .withFlows(flows).withPackets(packets));
        long[] after = uplinkQueuePackets(engine.stats());
        for (int queue = 0; queue < after.length; queue++) {
            after[queue] -= before[queue];
        }
        return after;
    }

    private static long[] send(Engine engine, String mac) {
        return send(engine, mac, VLAN, FLOWS, PACKETS);
    }

    private static long[] uplinkQueuePackets(EngineStats stats) {
        List<EngineStats.QueueStats> queues = stats.queues().stream().filter(q -> q.port() == UPLINK).toList();
        long[] packets = new long[queues.size()];
        for (EngineStats.QueueStats queue : queues) {
            packets[queue.queue()] = queue.packets();
        }
        return packets;
    }

    @Test
    void eachVnicsMacAndVlanLandsOnItsOwnQueueAndEverythingElseOnTheDefaultQueue() {
        try (Engine engine = Engine.start(topology(4, Map.of(), "a", "b", "c").build())) {
            assertThat(send(engine, mac("a"))).containsExactly(0, PACKETS, 0, 0);
            assertThat(send(engine, mac("b"))).containsExactly(0, 0, PACKETS, 0);
            assertThat(send(engine, mac("c"))).containsExactly(0, 0, 0, PACKETS);

            assertThat(send(engine, "02:00:00:00:00:99")).as("unknown unicast").containsExactly(PACKETS, 0, 0, 0);
            assertThat(send(engine, "ff:ff:ff:ff:ff:ff")).as("broadcast").containsExactly(PACKETS, 0, 0, 0);
            assertThat(send(engine, mac("a"), 20, FLOWS, PACKETS)).as("vm-a's MAC on another VLAN")
                    .containsExactly(PACKETS, 0, 0, 0);
            assertThat(((LoopbackNic) engine.driver(1)).sink().packets()).as("vm-a's own frames and the broadcast, "
                    + "flooded to every VM port of its VLAN").isEqualTo(2L * PACKETS);
        }
    }

    @Test
    void vnicsBeyondTheDedicatedQueuesShareTheRssPoolAndThoseBeyondTheFilterLimitTheDefaultQueue() {
        // queue 0 default, 1-2 dedicated, 3-4 the RSS pool; three filters for four vNICs
        Map<String, String> options = Map.of("rssQueues", "2", "netqueueFilters", "3");
        try (Engine engine = Engine.start(topology(5, options, "a", "b", "c", "d").build())) {
            assertThat(send(engine, mac("a"))).containsExactly(0, PACKETS, 0, 0, 0);
            assertThat(send(engine, mac("b"))).containsExactly(0, 0, PACKETS, 0, 0);

            long[] shared = send(engine, mac("c"), VLAN, 256, 512);
            assertThat(shared[0] + shared[1] + shared[2]).isZero();
            assertThat(shared[3]).isPositive();
            assertThat(shared[4]).isPositive();
            assertThat(shared[3] + shared[4]).isEqualTo(512);

            assertThat(send(engine, mac("d"))).as("no filter left").containsExactly(PACKETS, 0, 0, 0, 0);
        }
    }

    @Test
    void rssSpreadsFlowsOverEveryQueueAndKeepsEachFlowOnOne() {
        int flows = 256;
        int packets = flows * 8;
        // one worker per queue: a flow split over two queues would be learned by two flow caches
        EngineConfig config = topology(4, Map.of("rss", "true"), "a").workers(0, 4).build();
        try (Engine engine = Engine.start(config)) {
            long[] perQueue = send(engine, mac("a"), VLAN, flows, packets);

            assertThat(perQueue).doesNotContain(0L);
            assertThat(perQueue[0] + perQueue[1] + perQueue[2] + perQueue[3]).isEqualTo(packets);
            EngineStats stats = engine.stats();
            assertThat(stats.queues()).filteredOn(q -> q.port() == UPLINK).extracting(EngineStats.QueueStats::worker)
                    .doesNotHaveDuplicates();
            assertThat(stats.flowCache().misses()).isEqualTo(flows);
            TrafficSink sink = ((LoopbackNic) engine.driver(1)).sink();
            assertThat(sink.packets()).isEqualTo(packets);
            assertThat(sink.lost()).isZero();
            assertThat(sink.reordered()).isZero();
        }
    }

    @Test
    void filtersFollowTheVnicsThatApplyAddsAndRemoves() {
        EngineConfig first = topology(4, Map.of(), "a").build();
        try (Engine engine = Engine.start(first)) {
            assertThat(send(engine, mac("a"))).containsExactly(0, PACKETS, 0, 0);

            EngineConfig second = first.toBuilder().port(vmPort(2)).vnic(vnic("b", 2)).build();
            engine.apply(second);
            assertThat(send(engine, mac("a"))).as("a keeps its queue").containsExactly(0, PACKETS, 0, 0);
            assertThat(send(engine, mac("b"))).containsExactly(0, 0, PACKETS, 0);

            engine.apply(second.toBuilder().vnics(List.of(vnic("b", 2), vnic("d", 1))).build());
            assertThat(send(engine, mac("a"))).as("a is gone").containsExactly(PACKETS, 0, 0, 0);
            assertThat(send(engine, mac("b"))).containsExactly(0, 0, PACKETS, 0);
            assertThat(send(engine, mac("d"))).as("d takes the queue a freed").containsExactly(0, PACKETS, 0, 0);
        }
    }

    @Test
    void badSteeringOptionsNameTheOption() {
        assertThat(startError(Map.of("steering", "hash"))).contains("ports[id=0].driverOptions.steering")
                .contains("fivetuple").contains("netqueue");
        assertThat(startError(Map.of("rss", "true"))).contains("ports[id=0].driverOptions.rss needs steering=netqueue");
        assertThat(startError(Map.of("steering", "netqueue", "rssQueues", "5")))
                .contains("ports[id=0].driverOptions.rssQueues must be an integer in 0..4: 5");
        assertThat(startError(Map.of("steering", "netqueue", "rss", "true", "rssQueues", "2")))
                .contains("driverOptions.rss").contains("driverOptions.rssQueues");
        assertThat(startError(Map.of("steering", "netqueue", "netqueueFilters", "-1")))
                .contains("ports[id=0].driverOptions.netqueueFilters");
        assertThat(startError(Map.of("steering", "netqueue", "toeplitzKey", "6d5a")))
                .contains("ports[id=0].driverOptions.toeplitzKey must be 40 bytes in hex");
        assertThat(startError(Map.of("steering", "netqueue", "symmetric", "yes")))
                .contains("ports[id=0].driverOptions.symmetric must be true or false");
        assertThat(startError(Map.of("steering", "netqueue", "symmetric", "true", "toeplitzKey", "6d5a".repeat(20))))
                .contains("driverOptions.symmetric").contains("driverOptions.toeplitzKey");
        assertThat(startError(Map.of("steering", "netqueue", "rssQueue", "2")))
                .contains("ports[id=0].driverOptions.rssQueue: unknown option").contains("rssQueues");
    }

    private static String startError(Map<String, String> options) {
        EngineConfig config = EngineConfig.builder()
                .port(new PortConfig(UPLINK, "uplink0", 0, 4, 1, "loopback", options)).build();
        Throwable error = catchThrowable(() -> Engine.start(config).close());
        assertThat(error).isInstanceOf(IllegalArgumentException.class);
        return error.getMessage();
    }
}
