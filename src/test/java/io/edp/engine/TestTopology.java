package io.edp.engine;

import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.slowpath.Route;

/**
 * The topology most engine tests use: port 0 an uplink, port 1 the VM port of vm-a (VLAN 10), port 2 a second
 * uplink; the router sends 10.128.0.0/16 out of port 2 and 10.129.0.0/16 to vm-a.
 */
public final class TestTopology {

    public static final String VM_A_MAC = "02:00:00:00:00:01";
    public static final String GATEWAY_MAC = "02:00:00:00:00:fe";

    private TestTopology() {
    }

    public static EngineConfig.Builder config(Mode mode) {
        return EngineConfig.builder()
                .mode(mode)
                .port(PortConfig.loopback(0, "uplink0", 0, 2, 2))
                .port(PortConfig.loopback(1, "vm-a-eth0", 0, 1, 2))
                .port(PortConfig.loopback(2, "uplink1", 0, 1, 2))
                .vnic(new VnicConfig("vm-a-eth0", "vm-a", 1, VM_A_MAC, 10, AdapterType.VMXNET3))
                .route(new Route("10.128.0.0/16", GATEWAY_MAC, 2, 20))
                .route(new Route("10.129.0.0/16", VM_A_MAC, 1, 0))
                .mbufs(4096);
    }

    /** Routed UDP traffic from the uplink: frames to the router MAC, out of port 2. */
    public static TrafficProfile routed(int flows, long packets) {
        return TrafficProfile.udp().withFlows(flows).withPackets(packets)
                .withMacs("02:00:00:00:00:aa", EngineConfig.DEFAULT_ROUTER_MAC).withVlan(10)
                .withAddresses("10.0.0.0", "10.128.0.0", 16);
    }

    public static LoopbackNic nic(Engine engine, int port) {
        return (LoopbackNic) engine.driver(port);
    }
}
