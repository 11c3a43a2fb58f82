package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.packet.FlowKey;
import io.edp.engine.packet.Frames;
import io.edp.engine.packet.InternetChecksum;
import io.edp.engine.slowpath.MacAddress;
import io.edp.engine.slowpath.Route;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VLAN stacks through a real engine, frames replayed from a capture and captured as they leave: a routed frame
 * leaves with exactly the route's VLAN (none for VLAN 0 or a VM port), single-tagged or QinQ alike; a switched
 * QinQ frame loses only its outer (segment) tag. LEGACY and EDP_STANDARD send the same bytes.
 */
class QinqForwardingTest {

    private static final long ROUTER_MAC = MacAddress.parse(EngineConfig.DEFAULT_ROUTER_MAC, "routerMac");
    private static final long NEXT_HOP_MAC = 0x02_00_00_00_00_feL;
    private static final long VM_MAC = 0x02_00_00_00_00_01L;
    private static final long SENDER_MAC = 0x02_00_00_00_00_aaL;
    private static final int SOURCE = 0x0A00_0001;
    private static final int TO_UNTAGGED_ROUTE = 0x0A82_0005; // 10.130.0.5: route VLAN 0
    private static final int TO_VLAN_20_ROUTE = 0x0A80_0005; // 10.128.0.5: route VLAN 20
    private static final int TO_VM = 0x0A81_0005; // 10.129.0.5: routed to vm-a's port
    private static final int[] QINQ = {FlowKey.ETHERTYPE_QINQ, 100, FlowKey.ETHERTYPE_VLAN, 30};
    private static final int[] DOT1Q = {FlowKey.ETHERTYPE_VLAN, 100};
    private static final int[] UNTAGGED = {};
    private static final int[] VLAN_20 = {FlowKey.ETHERTYPE_VLAN, 20};

    @TempDir
    Path dir;

    /** Uplink 1 replays; uplink 2 and port 3, vm-a's port (VLAN 100), capture. */
    private static EngineConfig config(CapturedUplinks ports, Mode mode, List<byte[]> input) {
        return ports.config(mode, input)
                .port(ports.capturePort(mode, 3, "vm-a-eth0"))
                .vnic(new VnicConfig("vm-a-eth0", "vm-a", 3, MacAddress.format(VM_MAC), 100, AdapterType.VMXNET3))
                .route(new Route("10.128.0.0/16", MacAddress.format(NEXT_HOP_MAC), 2, 20))
                .route(new Route("10.130.0.0/16", MacAddress.format(NEXT_HOP_MAC), 2, 0))
                .route(new Route("10.129.0.0/16", MacAddress.format(VM_MAC), 3, 0))
                .build();
    }

    @Test
    void aRoutedFrameLeavesWithTheRoutesVlanAsItsWholeTagStackInEveryMode() {
        List<byte[]> input = new ArrayList<>();
        for (int round = 0; round < 2; round++) { // the second round of single-tagged frames meets the flow cache
            input.add(icmpEcho(ROUTER_MAC, SENDER_MAC, QINQ, TO_UNTAGGED_ROUTE, 64));
            input.add(icmpEcho(ROUTER_MAC, SENDER_MAC, QINQ, TO_VLAN_20_ROUTE, 64));
            input.add(icmpEcho(ROUTER_MAC, SENDER_MAC, DOT1Q, TO_UNTAGGED_ROUTE, 64));
            input.add(icmpEcho(ROUTER_MAC, SENDER_MAC, DOT1Q, TO_VLAN_20_ROUTE, 64));
            input.add(icmpEcho(ROUTER_MAC, SENDER_MAC, QINQ, TO_VM, 64));
            input.add(icmpEcho(VM_MAC, SENDER_MAC, QINQ, TO_VM, 64)); // switched to vm-a on segment 100
        }
        List<byte[]> toUplink = new ArrayList<>();
        List<byte[]> toVm = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
            toUplink.add(icmpEcho(NEXT_HOP_MAC, ROUTER_MAC, UNTAGGED, TO_UNTAGGED_ROUTE, 63));
            toUplink.add(icmpEcho(NEXT_HOP_MAC, ROUTER_MAC, VLAN_20, TO_VLAN_20_ROUTE, 63));
            toUplink.add(icmpEcho(NEXT_HOP_MAC, ROUTER_MAC, UNTAGGED, TO_UNTAGGED_ROUTE, 63));
            toUplink.add(icmpEcho(NEXT_HOP_MAC, ROUTER_MAC, VLAN_20, TO_VLAN_20_ROUTE, 63));
            toVm.add(icmpEcho(VM_MAC, ROUTER_MAC, UNTAGGED, TO_VM, 63));
            toVm.add(icmpEcho(VM_MAC, SENDER_MAC, new int[] {FlowKey.ETHERTYPE_VLAN, 30}, TO_VM, 64));
        }

        CapturedUplinks ports = new CapturedUplinks(dir);
        for (Mode mode : List.of(Mode.LEGACY, Mode.EDP_STANDARD)) {
            EngineStats stats = CapturedUplinks.replay(config(ports, mode, input), input.size());

            assertThat(stats.drops()).as(mode.toString()).isEmpty();
            assertThat(ports.sent(mode, 1)).as("%s: back out of the ingress port", mode).isEmpty();
            assertThat(hex(ports.sent(mode, 2))).as("%s: to the uplink", mode).containsExactlyElementsOf(hex(toUplink));
            assertThat(hex(ports.sent(mode, 3))).as("%s: to vm-a", mode).containsExactlyElementsOf(hex(toVm));
        }
    }

    private static List<String> hex(List<byte[]> frames) {
        return frames.stream().map(HexFormat.of()::formatHex).toList();
    }

    /**
     * An ICMP echo request from 10.0.0.1 to {@code destination} with the given tags (TPID, VID pairs) and TTL, its
     * IPv4 checksum correct.
     */
    private static byte[] icmpEcho(long dstMac, long srcMac, int[] tags, int destination, int ttl) {
        Frames f = Frames.ethernet(dstMac, srcMac);
        for (int i = 0; i < tags.length; i += 2) {
            f.vlan(tags[i], tags[i + 1]);
        }
        byte[] frame = f.ipv4(FlowKey.PROTO_ICMP, SOURCE, destination, ttl, 0, 8).icmp(8, 0).bytes();
        int l3 = 14 + 2 * tags.length;
        short checksum = InternetChecksum.finish(InternetChecksum.add(0, MemorySegment.ofArray(frame), l3, 20));
        frame[l3 + 10] = (byte) (checksum >> 8);
        frame[l3 + 11] = (byte) checksum;
        return frame;
    }
}
