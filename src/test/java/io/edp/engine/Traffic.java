package io.edp.engine;

import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.nic.loopback.TrafficProfile;
import java.time.Duration;

/** Runs generator traffic to completion: every frame sent and fully handled (transmitted or dropped). */
public final class Traffic {

    private Traffic() {
    }

    public static void sendAll(Engine engine, int port, TrafficProfile profile) {
        long before = engine.stats().rxPackets();
        TrafficGenerator generator = TestTopology.nic(engine, port).startTraffic(profile);
        Await.until("the generator to finish", generator::finished, Duration.ofSeconds(30));
        long expected = before + generator.sent();
        drained(engine, expected);
    }

    /**
     * Waits until {@code rxPackets} frames were received and every one of them was sent or dropped (a rejected
     * one's reply, the router's answers and a flooded frame's copies sent too).
     */
    public static EngineStats drained(Engine engine, long rxPackets) {
        Await.until(rxPackets + " frames handled", () -> {
            EngineStats s = engine.stats();
            return s.rxPackets() == rxPackets
                    && s.txPackets() + s.dropped() == rxPackets + s.rejectReplies().sent() + s.routerReplies().sent()
                            + s.flood().copies();
        }, Duration.ofSeconds(30), () -> engine.stats().toString());
        engine.sync();
        return engine.stats();
    }
}
