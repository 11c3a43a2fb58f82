package io.edp.engine;

import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.packet.Frames;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Verdict;
import io.edp.engine.time.ManualClock;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * A stateful firewall between two VMs, driven frame by frame on a {@link ManualClock}: VM-A (10.0.0.1) on VM port
 * 1, VM-B (10.0.0.2) behind uplink 0 on VLAN 10. Rule 1 allows 10.0.0.1 → 10.0.0.2, rule 99 drops everything
 * else, so replies pass only as part of a tracked connection. Frames from A leave on port 0, frames from B on
 * port 1; each send waits until the engine has handled the frame.
 */
final class TwoVms implements AutoCloseable {

    static final int A = 0x0A000001;
    static final int B = 0x0A000002;
    static final long A_MAC = 0x020000000001L;
    static final long B_MAC = 0x0200000000AAL;
    static final long A_HI = 0xFD00_0000_0000_0000L;
    static final long B_HI = 0xFD00_0000_0000_0001L;
    static final int UPLINK = 0;
    static final int VM_PORT = 1;

    final ManualClock clock = new ManualClock(1_000_000_000L);
    Engine engine;
    private long received;

    TwoVms(Mode mode) {
        this(config(mode).build());
    }

    TwoVms(EngineConfig config) {
        engine = Engine.start(config, NicDrivers.withLoopback(), clock);
    }

    static EngineConfig.Builder config(Mode mode) {
        return TestTopology.config(mode)
                .rule(FirewallRule.of(1, "10.0.0.1/32", "10.0.0.2/32", 0, Verdict.ALLOW))
                .rule(FirewallRule.of(2, "fd00::/64", "fd00:0:0:1::/64", 0, Verdict.ALLOW))
                .rule(FirewallRule.of(99, "any", "any", 0, Verdict.DROP));
    }

    /** A frame from VM-A (untagged, on its VM port) to VM-B. */
    static Frames fromA() {
        return Frames.ethernet(B_MAC, A_MAC);
    }

    /** A frame from VM-B (tagged 10, on the uplink) to VM-A. */
    static Frames fromB() {
        return Frames.ethernet(A_MAC, B_MAC).vlan(0x8100, 10);
    }

    static byte[] udp(boolean fromA, int aPort, int bPort) {
        Frames f = fromA ? fromA() : fromB();
        return f.ipv4(17, fromA ? A : B, fromA ? B : A, 64, 0, 8 + 18)
                .udp(fromA ? aPort : bPort, fromA ? bPort : aPort, 18).bytes();
    }

    static byte[] tcp(boolean fromA, int aPort, int bPort, int flags) {
        Frames f = fromA ? fromA() : fromB();
        return f.ipv4(6, fromA ? A : B, fromA ? B : A, 64, 0, 20 + 6)
                .tcp(fromA ? aPort : bPort, fromA ? bPort : aPort, flags, 6).bytes();
    }

    /** Sends a frame from A (on the VM port) or from B (on the uplink) and waits until the engine handled it. */
    void send(boolean fromA, byte[] frame) {
        inject(fromA ? VM_PORT : UPLINK, frame);
        settle();
    }

    /** Puts a frame on the wire of {@code port} without waiting for the engine. */
    void inject(int port, byte[] frame) {
        LoopbackNic nic = TestTopology.nic(engine, port);
        MemorySegment segment = MemorySegment.ofArray(frame);
        while (!nic.inject(segment, 0, frame.length)) {
            Thread.onSpinWait();
        }
        received++;
    }

    /** Waits until every injected frame was transmitted or dropped. */
    void settle() {
        Traffic.drained(engine, received);
    }

    /** Frames delivered to VM-B (out of the uplink). */
    long atB() {
        return TestTopology.nic(engine, UPLINK).sink().packets();
    }

    /** Frames delivered to VM-A (out of its VM port). */
    long atA() {
        return TestTopology.nic(engine, VM_PORT).sink().packets();
    }

    /** Moves the clock and returns once every worker has started an iteration, which reads the new time. */
    void advance(Duration by) {
        clock.advance(by);
        engine.sync();
    }

    /** Replaces the engine with a new one built from {@code config}, as the manager does when a port changes. */
    void rebuild(EngineConfig config) {
        Engine old = engine;
        old.close();
        engine = Engine.start(config, NicDrivers.withLoopback(), clock, old.connections());
        received = 0;
    }

    @Override
    public void close() {
        engine.close();
    }
}
