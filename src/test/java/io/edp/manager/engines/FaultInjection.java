package io.edp.manager.engines;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.edp.engine.Engine;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * Test-only: the engines the manager pushes to, with a switch that makes every push to chosen hosts fail, as an
 * unreachable or refusing engine would, and a gate that holds pushes so a test can see how many run at once.
 */
@TestConfiguration(proxyBeanMethods = false)
public class FaultInjection {

    @Bean
    @Primary
    FaultyEngines faultyEngines(EmbeddedEngines embedded) {
        return new FaultyEngines(embedded);
    }

    public static final class FaultyEngines implements HostEngines {

        private final EmbeddedEngines engines;
        private final Set<UUID> failing = ConcurrentHashMap.newKeySet();
        private final AtomicInteger inFlight = new AtomicInteger();
        private final AtomicInteger maxInFlight = new AtomicInteger();
        private volatile CountDownLatch held;

        FaultyEngines(EmbeddedEngines engines) {
            this.engines = engines;
        }

        public void failPushesTo(UUID hostId) {
            failing.add(hostId);
        }

        public void heal(UUID hostId) {
            failing.remove(hostId);
        }

        /** Makes every push wait until {@link #releasePushes()}, and counts pushes in flight from now on. */
        public void holdPushes() {
            maxInFlight.set(inFlight.get());
            held = new CountDownLatch(1);
        }

        public void releasePushes() {
            var latch = held;
            held = null;
            if (latch != null) {
                latch.countDown();
            }
        }

        public int pushesInFlight() {
            return inFlight.get();
        }

        /** The most pushes that were in flight at once since {@link #holdPushes()}. */
        public int maxPushesInFlight() {
            return maxInFlight.get();
        }

        @Override
        public void push(HostDataPath desired) {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                var latch = held;
                if (latch != null) {
                    latch.await();
                }
                if (failing.contains(desired.hostId())) {
                    throw new IllegalStateException("injected fault: the engine of " + desired.hostName()
                            + " refused generation " + desired.generation());
                }
                engines.push(desired);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("push interrupted", e);
            } finally {
                inFlight.decrementAndGet();
            }
        }

        @Override
        public void remove(UUID hostId) {
            engines.remove(hostId);
        }

        @Override
        public OptionalLong generation(UUID hostId) {
            return engines.generation(hostId);
        }

        @Override
        public Set<UUID> reachable() {
            return engines.reachable();
        }

        @Override
        public Set<UUID> hosts() {
            return engines.hosts();
        }

        @Override
        public Optional<HostEngine> engine(UUID hostId) {
            return engines.engine(hostId);
        }

        @Override
        public Optional<String> fault(UUID hostId) {
            return engines.fault(hostId);
        }

        /** Closes every engine, as if the process had ended. */
        public void stopEveryEngine() {
            engines.destroy();
        }

        /** The engine itself, for tests that break it. */
        public Engine running(UUID hostId) {
            return ((InProcessEngine) require(hostId)).engine();
        }

    }
}
