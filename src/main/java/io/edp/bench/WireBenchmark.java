package io.edp.bench;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.numa.CpuAffinity;
import io.edp.engine.numa.CpuSet;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * {@code bench wire}: what the loopback NIC's wire (its traffic generator, building frames and writing them into
 * posted buffers) costs its own core a frame, with a receiver that takes each burst as fast as it comes, writes each
 * frame's first line as a worker's rewrite does, and frees it. {@code bench engine} measures its worker against
 * this wire: where the wire is the slower, the worker waits and its CPU a packet counts empty polls (its
 * {@code WIRE-BOUND} runs), so the wire must run well below the worker's figures. One flow and {@code bench
 * engine}'s 125,000, cases interleaved round by round in this JVM, the wire and the receiver pinned to two CPUs.
 */
final class WireBenchmark {

    static final String USAGE = "usage: bench wire [--rounds=N] [--window-ms=N]";
    private static final int[] FLOWS = {1, EngineCase.FLOWS};
    private static final int POOL_BUFFERS = 1 << 16;
    private static final int RING_SLOTS = 512;

    private record Round(double wireNanosPerFrame, double mpps) {
    }

    static int run(List<String> options, PrintStream out, PrintStream err) {
        Rounds settings = Rounds.parse("wire", USAGE, options, new Rounds(5, 1_000), err);
        if (settings == null) {
            return 2;
        }
        int rounds = settings.rounds();
        long windowMillis = settings.windowMillis();
        // where bench engine puts its traffic generator and its worker
        EngineCaseRun.Placement placement = EngineBenchmark.placement();
        if (placement.worker().isEmpty()) {
            err.println("bench wire: needs two CPUs it may pin threads to, one for the wire and one for its receiver"
                    + " (this process has fewer, or cannot pin threads here)");
            return 1;
        }
        CpuSet wireCpu = placement.generator();
        CpuSet receiverCpu = placement.worker();
        out.printf(Locale.ROOT, "bench wire: %d flow counts x %d interleaved rounds, window %d ms each (after as"
                + " long a warm-up), wire on CPU %s, receiver on CPU %s%n", FLOWS.length, rounds, windowMillis,
                wireCpu, receiverCpu);
        Round[][] measured = new Round[FLOWS.length][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int c = 0; c < FLOWS.length; c++) {
                measured[c][round] = measure(FLOWS[c], windowMillis, wireCpu, receiverCpu);
                out.printf(Locale.ROOT, "round %d/%d, %,d flows: wire %.1f ns a frame, %.2f Mpps%n", round + 1,
                        rounds, FLOWS[c], measured[c][round].wireNanosPerFrame(), measured[c][round].mpps());
            }
        }
        out.println("flows     wire ns/frame median [min-max]   Mpps median");
        var rows = new ArrayList<String>();
        for (int c = 0; c < FLOWS.length; c++) {
            double[] wireRounds = figure(measured[c], Round::wireNanosPerFrame);
            var wire = EngineBenchmark.Spread.of(wireRounds);
            var mpps = EngineBenchmark.Spread.of(figure(measured[c], Round::mpps));
            out.printf(Locale.ROOT, "%-9s %8.1f [%.1f-%.1f] %17.2f%n", String.format(Locale.ROOT, "%,d", FLOWS[c]),
                    wire.median(), wire.min(), wire.max(), mpps.median());
            rows.add(String.format(Locale.ROOT, "{\"flows\": %d, \"wire_ns_per_frame_median\": %.2f, "
                    + "\"wire_ns_per_frame_rounds\": %s, \"mpps_median\": %.3f}", FLOWS[c], wire.median(),
                    Arrays.toString(wireRounds), mpps.median()));
        }
        Rounds.write("wire", rows, out);
        return 0;
    }

    private static double[] figure(Round[] rounds, ToDoubleFunction<Round> f) {
        return Arrays.stream(rounds).mapToDouble(f).toArray();
    }

    /** One window of {@code flows} 64-byte UDP flows on a fresh one-queue port, after a warm-up as long. */
    private static Round measure(int flows, long windowMillis, CpuSet wireCpu, CpuSet receiverCpu) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        MbufPool pool = new MbufPool(POOL_BUFFERS, Mbuf.DESCRIPTOR_BYTES);
        LoopbackNic nic = new LoopbackNic(0, "wire", pool, 1, 1, RING_SLOTS, null, 0);
        Receiver receiver = new Receiver(nic, pool);
        Thread receiving = Thread.ofPlatform().name("edp-bench-wire-receiver").start(() -> {
            CpuAffinity.pinCurrentThread(receiverCpu);
            receiver.run();
        });
        TrafficGenerator wire = nic.startTraffic(TrafficProfile.udp().withFlows(flows).withFrameBytes(64), wireCpu);
        try {
            EngineCaseRun.pause(windowMillis);
            long frames0 = wire.sent();
            long cpu0 = threads.getThreadCpuTime(wire.threadId());
            long wall0 = System.nanoTime();
            EngineCaseRun.pause(windowMillis);
            long frames = wire.sent() - frames0;
            long cpu = threads.getThreadCpuTime(wire.threadId()) - cpu0;
            long wall = System.nanoTime() - wall0;
            if (frames <= 0) {
                throw new IllegalStateException("the wire put no frame on the wire in " + windowMillis + " ms");
            }
            return new Round((double) cpu / frames, frames * 1e3 / wall);
        } finally {
            wire.stop();
            receiver.stopped = true;
            try {
                receiving.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            nic.close();
            pool.close();
        }
    }

    /** Polls the port's one queue, writes each frame's first eight bytes, frees the burst; until stopped. */
    private static final class Receiver implements Runnable {
        private final LoopbackNic nic;
        private final MbufPool pool;
        private final MbufCache cache;
        private final int[] burst = new int[NicDriver.MAX_BURST];
        volatile boolean stopped;

        Receiver(LoopbackNic nic, MbufPool pool) {
            this.nic = nic;
            this.pool = pool;
            this.cache = new MbufCache(pool);
        }

        @Override
        public void run() {
            MemorySegment rooms = pool.dataRooms();
            long count = 0;
            while (!stopped) {
                int n = nic.rxBurst(0, cache, burst, NicDriver.MAX_BURST);
                for (int i = 0; i < n; i++) {
                    rooms.set(ValueLayout.JAVA_LONG_UNALIGNED, pool.dataRoomAddress(burst[i])
                            + MbufPool.HEADROOM_BYTES, count);
                }
                cache.freeBurst(burst, n);
                count += n;
            }
            cache.flush();
        }
    }
}
