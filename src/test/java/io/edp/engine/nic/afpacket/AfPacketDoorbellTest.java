package io.edp.engine.nic.afpacket;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.bench.TrafgenProfile;
import io.edp.bench.VethLab;
import io.edp.engine.Await;
import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.IdleWorkers;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.Doorbell;
import io.edp.engine.nic.ForwardingPathExtension;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.slowpath.Route;
import io.edp.engine.time.SystemClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker asleep on af_packet queues waits in poll(2) on their sockets and the doorbell's eventfd: a frame wakes
 * it once the kernel retires its block (the block-retire timeout, 1 ms by default), a push from the control side
 * wakes it without any frame. On the veth pair of a private namespace (see {@link VethLab}).
 */
class AfPacketDoorbellTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    /**
     * Far below the 10 s sleep the frame must cut short, far beyond the 1 ms retire timeout (which the kernel rounds
     * up to a jiffy): a machine at load 20 took 176 ms. The latency itself is measured by bench engine, not here.
     */
    private static final long WAKE_BOUND_NANOS = 2_000_000_000L;

    @RegisterExtension
    static final ForwardingPathExtension TOPOLOGY = new ForwardingPathExtension();

    @Test
    void aSleeperInPollIsWokenByAFrameArrivingNotByItsTimeout() throws Exception {
        VethLab.ForwardingPath path = TOPOLOGY.path();
        MbufPool pool = new MbufPool(1024, Mbuf.DESCRIPTOR_BYTES);
        MbufCache cache = new MbufCache(pool);
        int[] burst = new int[NicDriver.MAX_BURST];
        try (AfPacketDriver rx = AfPacketDriver.open(AfPacketConfig.of(path.ingress(), 1), 1, pool);
                Doorbell doorbell = new Doorbell()) {
            doorbell.attach(rx, 0);
            Instant[] wokeAt = new Instant[1];
            Thread sleeper = Thread.ofPlatform().start(() -> {
                doorbell.arm();
                doorbell.sleep(10_000_000_000L);
                wokeAt[0] = Instant.now();
            });
            Await.until("the sleeper to be in poll(2)", () -> doorbell.sleepNanos() > 0, DEADLINE);

            TOPOLOGY.lab().trafgen(path.generator(), VethLab.GENERATOR_DEVICE, new TrafgenProfile(1, 64, 0), 1);
            sleeper.join(DEADLINE);

            assertThat(doorbell.wakeups()).as("the sleep ended before its timeout").isEqualTo(1);
            assertThat(rx.rxBurst(0, cache, burst, NicDriver.MAX_BURST)).isEqualTo(1);
            long arrived = new Mbuf(pool).wrap(burst[0]).timestamp(); // the kernel's receive time
            long woke = wokeAt[0].getEpochSecond() * 1_000_000_000L + wokeAt[0].getNano();
            System.out.printf("af_packet doorbell: woke %.3f ms after the frame arrived%n", (woke - arrived) / 1e6);
            assertThat(woke - arrived).as("ns from the frame's arrival to the wake-up")
                    .isBetween(0L, WAKE_BOUND_NANOS);
            cache.freeBurst(burst, 1);
            doorbell.detach(rx, 0);
        }
    }

    @Test
    void anEngineWorkerAsleepInPollWakesOnTheFirstFrame() {
        try (Engine engine = Engine.start(config(), NicDrivers.standard(), SystemClock.INSTANCE)) {
            IdleWorkers.awaitLongSleep(engine);
            long wakeups = IdleWorkers.wakeups(engine);

            VethLab.ForwardingPath path = TOPOLOGY.path();
            TOPOLOGY.lab().trafgen(path.generator(), VethLab.GENERATOR_DEVICE, new TrafgenProfile(1, 64, 0), 1);
            Await.until("the frame to be received", () -> engine.stats().rxPackets() >= 1, DEADLINE);

            assertThat(IdleWorkers.wakeups(engine)).as("sleeps cut short by the socket").isGreaterThan(wakeups);
        }
    }

    @Test
    void aPushWakesAnEngineWorkerAsleepInPollWithoutTraffic() {
        try (Engine engine = Engine.start(config(), NicDrivers.standard(), SystemClock.INSTANCE)) {
            IdleWorkers.awaitLongSleep(engine);
            long wakeups = IdleWorkers.wakeups(engine);
            long received = engine.stats().rxPackets();

            EngineConfig next = engine.config().toBuilder()
                    .route(new Route("10.0.2.0/24", "02:00:00:00:00:98", 2, 0)).build();
            assertThat(engine.apply(next)).isEqualTo(2);

            assertThat(IdleWorkers.wakeups(engine)).as("sleeps cut short by the eventfd").isGreaterThan(wakeups);
            assertThat(engine.stats().rxPackets()).isEqualTo(received);
        }
    }

    /** EDP_STANDARD on one af_packet queue in, one out: a single worker sleeps in poll(2) on both sockets. */
    private static EngineConfig config() {
        VethLab.ForwardingPath path = TOPOLOGY.path();
        return EngineConfig.builder()
                .port(new PortConfig(1, "uplink-in", 0, 1, 1, "af_packet", Map.of("interface", path.ingress())))
                .port(new PortConfig(2, "uplink-out", 0, 1, 1, "af_packet", Map.of("interface", path.egress())))
                .route(new Route("10.0.1.0/24", "02:00:00:00:00:99", 2, 0))
                .build();
    }
}
