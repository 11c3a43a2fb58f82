package io.edp.engine.nic.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.edp.bench.HostCommand;
import io.edp.bench.VethLab;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufPool;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What a user sees when the interface is missing, down, or the process lacks CAP_NET_RAW. */
class AfPacketErrorsTest {

    private static VethLab lab;
    private static MbufPool pool;
    private static String down;

    @BeforeAll
    static void buildTopology() {
        pool = new MbufPool(1024, Mbuf.DESCRIPTOR_BYTES);
        lab = new VethLab();
        String peer = lab.namespace("err");
        down = lab.veth("down", peer, "peer0");
        HostCommand.run("ip", "link", "set", down, "down");
    }

    @AfterAll
    static void removeTopology() {
        if (lab != null) {
            lab.close();
        }
        pool.close();
    }

    @Test
    void unknownInterfaceIsNamedWithEnodev() {
        assertThatThrownBy(() -> AfPacketDriver.open(AfPacketConfig.of("nosuch" + lab.id(), 1), 0, pool))
                .isInstanceOf(AfPacketException.class)
                .hasMessage("af_packet nosuch" + lab.id() + ": if_nametoindex failed: ENODEV (no such interface)")
                .satisfies(e -> assertThat(((AfPacketException) e).errno()).isEqualTo(19));
    }

    @Test
    void interfaceThatIsDownIsRejectedBeforeAnyRingIsBuilt() {
        assertThatThrownBy(() -> AfPacketDriver.open(AfPacketConfig.of(down, 2), 0, pool))
                .isInstanceOf(AfPacketException.class)
                .hasMessage("af_packet " + down + ": interface is down (ip link set " + down + " up)");
    }

    @Test
    void nameLongerThanTheKernelAllowsIsRejected() {
        assertThatThrownBy(() -> AfPacketDriver.open(AfPacketConfig.of("a-very-long-interface-name", 1), 0, pool))
                .isInstanceOf(AfPacketException.class)
                .hasMessageContaining("interface name must have 1 to 15 characters");
    }

    @Test
    void withoutCapNetRawTheErrorSaysWhichCapabilityIsMissing() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        // capabilities are per thread in Linux: drop CAP_NET_RAW on a throwaway thread only
        Thread thread = Thread.ofPlatform().start(() -> {
            ThreadCapabilities.dropNetRaw();
            try {
                AfPacketDriver.open(AfPacketConfig.of("lo", 1), 0, pool).close();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        thread.join();

        assertThat(failure.get())
                .isInstanceOf(AfPacketException.class)
                .hasMessageStartingWith("af_packet lo: socket(AF_PACKET, SOCK_RAW) failed: EPERM")
                .hasMessageContaining("needs CAP_NET_RAW");
    }
}
