package io.edp.engine.tlb;

import io.edp.engine.Await;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

class ThreadLoadBalancerTest {

    private static final Duration INTERVAL = TlbConfig.DEFAULTS.interval();

    /** The scenario of {@link LoadPlannerTest#hotVm()}: 4 workers, 16 queues, worker 0 at 95 %. */
    private static SimulatedEngine hotVm() {
        SimulatedEngine engine = new SimulatedEngine();
        for (int worker = 0; worker < 4; worker++) {
            engine.worker(worker, 0);
            for (int i = 0; i < 4; i++) {
                engine.queue(worker * 4 + i, worker, 0, worker == 0 && i < 2 ? 0.40 : 0.075);
            }
        }
        return engine;
    }

    private static Optional<TlbDecision> cycle(SimulatedEngine engine, ThreadLoadBalancer tlb) {
        engine.advance(INTERVAL);
        return tlb.runCycle();
    }

    @Test
    void hotVmIsRebalancedInOneCycleWithTheFewestMoves() {
        SimulatedEngine engine = hotVm();
        ThreadLoadBalancer tlb = new ThreadLoadBalancer(TlbConfig.DEFAULTS, engine, engine);
        tlb.runCycle();

        TlbDecision decision = cycle(engine, tlb).orElseThrow();

        assertThat(decision.trigger()).isEqualTo(Trigger.OVERLOAD);
        assertThat(decision.outcome()).isEqualTo(TlbDecision.Outcome.APPLIED);
        assertThat(decision.loadsBefore().get(0)).isCloseTo(0.95, offset(1e-6));
        assertThat(engine.peak()).isLessThan(0.70);
        assertThat(engine.moves()).hasSize(BruteForce.fewestMovesBelow(LoadPlannerTest.hotVm(), 0.70, 16));
        assertThat(cycle(engine, tlb)).isEmpty();
        assertThat(tlb.lastLoads().orElseThrow().peakUtilization()).isLessThan(0.70);
    }

    @Test
    void anIntervalHoldsNoMoreBusyTimeThanItsLength() {
        // 100 ms apart: worker 0 counted 200 ms, a burst that began before the first sample having ended in this one
        BusySample before = new BusySample(0, List.of(busyWorker(0, 0), busyWorker(1, 0)),
                List.of(busyQueue(0, 0, 0), busyQueue(1, 0, 0), busyQueue(2, 1, 0)));
        BusySample after = new BusySample(100_000_000, List.of(busyWorker(0, 200_000_000), busyWorker(1, 40_000_000)),
                List.of(busyQueue(0, 0, 150_000_000), busyQueue(1, 0, 50_000_000), busyQueue(2, 1, 30_000_000)));

        LoadSnapshot loads = ThreadLoadBalancer.loads(before, after);

        assertThat(loads.workers()).extracting(WorkerLoad::utilization).containsExactly(1.0, 0.4);
        assertThat(loads.queues()).extracting(QueueLoad::load)
                .containsExactly(0.75, 0.25, 0.3); // worker 0's queues in the same proportion, worker 1's as counted
    }

    private static BusySample.Worker busyWorker(int worker, long busyNanos) {
        return new BusySample.Worker(worker, 0, busyNanos, 0);
    }

    private static BusySample.Queue busyQueue(int rxQueue, int owner, long busyNanos) {
        return new BusySample.Queue(new QueueId(0, rxQueue), owner, 0, busyNanos, 0);
    }

    @Test
    void balancedLoadCausesNoMove() {
        SimulatedEngine engine = new SimulatedEngine();
        for (int q = 0; q < 16; q++) {
            engine.worker(q % 4, 0).queue(q, q % 4, 0, 0.15);
        }
        ThreadLoadBalancer tlb = new ThreadLoadBalancer(TlbConfig.DEFAULTS, engine, engine);
        tlb.runCycle();

        for (int i = 0; i < 20; i++) {
            assertThat(cycle(engine, tlb)).isEmpty();
        }
        assertThat(engine.moves()).isEmpty();
        assertThat(tlb.history()).isEmpty();
    }

    @Test
    void oscillatingLoadDoesNotFlap() {
        SimulatedEngine engine = hotVm();
        ThreadLoadBalancer tlb = new ThreadLoadBalancer(TlbConfig.DEFAULTS, engine, engine);
        tlb.runCycle();
        Duration quiet = TlbConfig.DEFAULTS.minTimeBetweenMoves();
        int cycles = 40;

        for (int i = 0; i < cycles; i++) {
            // the hot traffic swings between a VM's queues on worker 0 and another's on worker 2
            boolean swing = i % 2 == 1;
            engine.setLoad(0, swing ? 0.075 : 0.40);
            engine.setLoad(1, swing ? 0.075 : 0.40);
            engine.setLoad(8, swing ? 0.40 : 0.075);
            engine.setLoad(9, swing ? 0.40 : 0.075);
            cycle(engine, tlb);
        }

        List<Instant> applied = tlb.history().stream()
                .filter(decision -> decision.outcome() == TlbDecision.Outcome.APPLIED)
                .map(TlbDecision::at).toList();
        assertThat(tlb.history()).anyMatch(decision -> decision.outcome() == TlbDecision.Outcome.TOO_SOON);
        for (int i = 1; i < applied.size(); i++) {
            assertThat(Duration.between(applied.get(i - 1), applied.get(i))).isGreaterThanOrEqualTo(quiet);
        }
        long elapsed = INTERVAL.multipliedBy(cycles).toSeconds();
        assertThat(applied.size()).isLessThanOrEqualTo(1 + (int) (elapsed / quiet.toSeconds()));
    }

    @Test
    void addedQueueTriggersATopologyDecision() {
        SimulatedEngine engine = new SimulatedEngine().worker(0, 0).worker(1, 0)
                .queue(0, 0, 0, 0.2).queue(1, 1, 0, 0.2);
        ThreadLoadBalancer tlb = new ThreadLoadBalancer(TlbConfig.DEFAULTS, engine, engine);
        tlb.runCycle();
        engine.queue(2, 0, 0, 0.2).queue(3, 0, 0, 0.2);

        TlbDecision decision = cycle(engine, tlb).orElseThrow();

        assertThat(decision.trigger()).isEqualTo(Trigger.TOPOLOGY);
        assertThat(decision.outcome()).isEqualTo(TlbDecision.Outcome.APPLIED);
        assertThat(engine.workerLoads()).containsValues(0.4, 0.4);
    }

    @Test
    void smallGainIsNotWorthAMove() {
        // 0.75 vs 0.65: the best plan moves a 0.05 queue, lowering the peak by 6.7 % < 10 %
        SimulatedEngine engine = new SimulatedEngine().worker(0, 0).worker(1, 0)
                .queue(0, 0, 0, 0.70).queue(1, 0, 0, 0.05).queue(2, 1, 0, 0.65);
        ThreadLoadBalancer tlb = new ThreadLoadBalancer(TlbConfig.DEFAULTS, engine, engine);
        tlb.runCycle();

        assertThat(cycle(engine, tlb).orElseThrow().outcome()).isEqualTo(TlbDecision.Outcome.GAIN_TOO_SMALL);
        assertThat(engine.moves()).isEmpty();
    }

    @Test
    void historyKeepsTheLatestDecisionsOnly() {
        SimulatedEngine engine = new SimulatedEngine().worker(0, 0).queue(0, 0, 0, 0.9);
        TlbConfig config = new TlbConfig(true, INTERVAL, 0.7, 0.1, Duration.ofSeconds(30), 3);
        ThreadLoadBalancer tlb = new ThreadLoadBalancer(config, engine, engine);
        tlb.runCycle();
        for (int i = 0; i < 10; i++) {
            cycle(engine, tlb);
        }

        assertThat(tlb.history()).hasSize(3);
        assertThat(tlb.history().getLast().at()).isEqualTo(engine.instant());
        assertThat(tlb.history()).allMatch(d -> d.outcome() == TlbDecision.Outcome.NO_BETTER_ASSIGNMENT);
    }

    @Test
    void reconfiguredBalancerKeepsItsHistoryAndAntiFlapTimeAndUsesTheNewSettingsFromTheNextCycle() {
        SimulatedEngine engine = hotVm();
        ThreadLoadBalancer tlb = new ThreadLoadBalancer(TlbConfig.DEFAULTS, engine, engine);
        tlb.runCycle();
        TlbDecision first = cycle(engine, tlb).orElseThrow();
        assertThat(first.outcome()).isEqualTo(TlbDecision.Outcome.APPLIED);
        assertThat(cycle(engine, tlb)).as("62.5 % is below the 70 % threshold").isEmpty();

        TlbConfig stricter = TlbConfig.DEFAULTS.withThreshold(0.50);
        tlb.reconfigure(stricter);
        TlbDecision tooSoon = cycle(engine, tlb).orElseThrow();

        assertThat(tooSoon.trigger()).isEqualTo(Trigger.OVERLOAD);
        assertThat(tooSoon.outcome()).as("the moves of the old settings were 8 s ago")
                .isEqualTo(TlbDecision.Outcome.TOO_SOON);
        assertThat(tlb.history()).containsExactly(first, tooSoon);
        assertThat(tlb.stats().config()).isEqualTo(stricter);
        engine.advance(TlbConfig.DEFAULTS.minTimeBetweenMoves());
        assertThat(tlb.runCycle().orElseThrow().outcome()).isEqualTo(TlbDecision.Outcome.APPLIED);
        assertThat(engine.peak()).isLessThan(0.50);

        tlb.reconfigure(new TlbConfig(true, INTERVAL, 0.50, 0.10, Duration.ofSeconds(30), 1));
        assertThat(tlb.history()).as("a smaller history keeps the newest").hasSize(1)
                .allMatch(decision -> decision.outcome() == TlbDecision.Outcome.APPLIED);
    }

    @Test
    void startedButDisabledBalancerStartsCyclingWhenReconfiguredOn() {
        AtomicInteger samples = new AtomicInteger();
        BalancedEngine counting = countingEngine(samples);
        TlbConfig fast = TlbConfig.DEFAULTS.withInterval(Duration.ofMillis(5));
        try (ThreadLoadBalancer tlb = new ThreadLoadBalancer(fast.withEnabled(false), counting,
                InstantSource.system())) {
            tlb.start();
            tlb.reconfigure(fast);

            Await.until("three cycles", () -> samples.get() >= 3, Duration.ofSeconds(10));
        }
    }

    private static BalancedEngine countingEngine(AtomicInteger samples) {
        return new BalancedEngine() {
            @Override
            public BusySample sampleBusy() {
                samples.incrementAndGet();
                return new BusySample(System.nanoTime(), List.of(), List.of());
            }

            @Override
            public void moveQueue(QueueId queue, int toWorker) {
                throw new AssertionError("nothing to move");
            }
        };
    }

    @Test
    void startedBalancerCyclesEveryIntervalUntilClosedAndNotAtAllWhenDisabled() {
        AtomicInteger samples = new AtomicInteger();
        BalancedEngine counting = countingEngine(samples);
        TlbConfig fast = TlbConfig.DEFAULTS.withInterval(Duration.ofMillis(5));
        try (ThreadLoadBalancer tlb = new ThreadLoadBalancer(fast, counting, InstantSource.system())) {
            tlb.start();
            Await.until("three cycles", () -> samples.get() >= 3, Duration.ofSeconds(10));
        }
        int afterClose = samples.get();
        TlbConfig disabled = new TlbConfig(false, fast.interval(), 0.7, 0.1, Duration.ZERO, 8);
        try (ThreadLoadBalancer tlb = new ThreadLoadBalancer(disabled, counting, InstantSource.system())) {
            Set<Thread> before = balancerThreads();
            tlb.start();
            // the closed balancer's thread may still be exiting; the disabled one must not add one
            assertThat(before).containsAll(balancerThreads());
        }
        assertThat(samples.get()).isEqualTo(afterClose);
    }

    private static Set<Thread> balancerThreads() {
        Set<Thread> threads = new HashSet<>(Thread.getAllStackTraces().keySet());
        threads.removeIf(thread -> !thread.getName().equals("edp-tlb"));
        return threads;
    }

    @Test
    void configRejectsNonsense() {
        Duration s = Duration.ofSeconds(1);
        assertThatThrownBy(() -> new TlbConfig(true, Duration.ZERO, 0.7, 0.1, s, 8))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TlbConfig(true, s, 1.5, 0.1, s, 8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TlbConfig(true, s, 0.7, 1.0, s, 8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TlbConfig(true, s, 0.7, 0.1, s.negated(), 8))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TlbConfig(true, s, 0.7, 0.1, s, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
