package io.edp.bench;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.afpacket.AfPacketConfig;
import io.edp.engine.nic.afpacket.AfPacketDriver;
import io.edp.engine.numa.CpuAffinity;
import io.edp.engine.numa.CpuSet;
import java.util.OptionalLong;

/**
 * The AF_PACKET drivers alone, without the engine: one thread moves every frame from the ingress port's RX
 * queue to the egress port's TX queue. Its rate is the ceiling the drivers put on the engine.
 */
final class DriverLoopForwarder implements AfPacketBench.Forwarder {

    private final MbufPool pool = new MbufPool(8192, Mbuf.DESCRIPTOR_BYTES);
    private final AfPacketDriver ingress;
    private final AfPacketDriver egress;
    private final Thread thread;
    private volatile boolean running = true;

    /** The loop between {@code ingressName} and {@code egressName}, its thread on {@code cpu} (-1: anywhere). */
    DriverLoopForwarder(String ingressName, String egressName, int cpu) {
        ingress = AfPacketDriver.open(AfPacketConfig.of(ingressName, 1), 0, pool);
        egress = AfPacketDriver.open(AfPacketConfig.of(egressName, 1), 1, pool);
        thread = Thread.ofPlatform().name("driver-loop").start(() -> forward(cpu));
    }

    private void forward(int cpu) {
        if (cpu >= 0) {
            CpuAffinity.pinCurrentThread(CpuSet.of(cpu));
        }
        MbufCache cache = new MbufCache(pool);
        int[] burst = new int[NicDriver.MAX_BURST];
        while (running) {
            int n = ingress.rxBurst(0, cache, burst, NicDriver.MAX_BURST);
            if (n == 0) {
                Thread.onSpinWait();
                continue;
            }
            egress.txBurst(0, cache, burst, n);
        }
        cache.flush();
    }

    @Override
    public OptionalLong dropped() {
        return OptionalLong.of(ingress.rxRingDrops() + egress.txDropped(0));
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ingress.close();
        egress.close();
        pool.close();
    }
}
