package io.edp.manager.realization;

import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.edp.engine.Engine;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * Test-only: the engines the manager pushes to, with a switch that makes every push to chosen hosts fail, as an
 * unreachable or refusing engine would.
 */
@TestConfiguration(proxyBeanMethods = false)
public class FaultInjection {

    @Bean
    @Primary
    FaultyEngines faultyEngines(EmbeddedEngines embedded) {
        return new FaultyEngines(embedded);
    }

    public static final class FaultyEngines implements HostEngines {

        private final HostEngines engines;
        private final Set<UUID> failing = ConcurrentHashMap.newKeySet();

        FaultyEngines(HostEngines engines) {
            this.engines = engines;
        }

        public void failPushesTo(UUID hostId) {
            failing.add(hostId);
        }

        public void heal(UUID hostId) {
            failing.remove(hostId);
        }

        @Override
        public void push(HostDataPath desired) {
            if (failing.contains(desired.hostId())) {
                throw new IllegalStateException("injected fault: the engine of " + desired.hostName()
                        + " refused generation " + desired.generation());
            }
            engines.push(desired);
        }

        @Override
        public void remove(UUID hostId) {
            engines.remove(hostId);
        }

        @Override
        public Set<UUID> hosts() {
            return engines.hosts();
        }

        @Override
        public Optional<Engine> engine(UUID hostId) {
            return engines.engine(hostId);
        }

    }
}
