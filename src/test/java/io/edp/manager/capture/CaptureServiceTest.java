package io.edp.manager.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.edp.engine.Engine;
import io.edp.engine.Mode;
import io.edp.engine.TestTopology;
import io.edp.engine.capture.CaptureStats;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.time.ManualClock;
import io.edp.manager.api.ConflictException;
import io.edp.manager.database.DataDirectoryProperties;
import io.edp.manager.engines.HostDataPath;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.engines.HostEngines;
import io.edp.manager.engines.InProcessEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

/** Old captures go: ended ones after the retention, the oldest ended one beyond the number kept per host. */
class CaptureServiceTest {

    private static final UUID HOST = UUID.randomUUID();
    private static final CaptureRequest ON_UPLINK =
            new CaptureRequest("uplink0", null, null, null, null, null, null, null);

    @TempDir
    Path dir;

    private final Engine engine = Engine.startStepped(TestTopology.config(Mode.EDP_STANDARD).build(),
            NicDrivers.withLoopback(), new ManualClock(0));
    private final MovableClock clock = new MovableClock();

    @AfterEach
    void close() {
        engine.close();
    }

    private CaptureService service(int maxKept, int maxRunning) {
        var properties = new CaptureProperties(dir, Duration.ofHours(1), maxKept, maxRunning,
                DataSize.ofMegabytes(64), Duration.ofSeconds(30));
        var noAgentHosts = new UploadedCaptures(null, null, properties) {
            @Override
            void cleanUp(Instant oldest) {
                // no host placed AGENT here, no database: nothing uploaded to clean up
            }
        };
        return new CaptureService(new OneEngine(new InProcessEngine(engine)), properties,
                new DataDirectoryProperties(dir), noAgentHosts, clock);
    }

    @Test
    void anEndedCaptureAndItsFileGoAfterTheRetentionARunningOneStays() {
        CaptureService service = service(20, 4);
        UUID ended = service.start(HOST, ON_UPLINK).id();
        clock.now = clock.now.plusSeconds(1);
        UUID running = service.start(HOST, ON_UPLINK).id();
        assertThat(service.delete(HOST, ended)).get().extracting(CaptureResponse::endReason)
                .isEqualTo(CaptureStats.EndReason.STOPPED);

        clock.now = Instant.now().plus(Duration.ofMinutes(59)); // the engine stamps the end on the wall clock
        service.cleanUp();
        assertThat(service.list(HOST)).extracting(CaptureResponse::id).containsExactly(ended, running);

        clock.now = Instant.now().plus(Duration.ofMinutes(61));
        service.cleanUp();
        assertThat(service.list(HOST)).extracting(CaptureResponse::id).containsExactly(running);
        assertThat(dir.resolve(ended + ".pcap")).doesNotExist();
        assertThat(dir.resolve(running + ".pcap")).exists();
    }

    @Test
    void beyondTheNumberKeptTheOldestEndedCaptureGoes() {
        CaptureService service = service(3, 2);
        UUID first = service.start(HOST, ON_UPLINK).id();
        clock.now = clock.now.plusSeconds(1);
        UUID second = service.start(HOST, ON_UPLINK).id();
        clock.now = clock.now.plusSeconds(1);
        service.delete(HOST, first);
        UUID third = service.start(HOST, ON_UPLINK).id();
        clock.now = clock.now.plusSeconds(1);
        service.delete(HOST, second);

        UUID fourth = service.start(HOST, ON_UPLINK).id();

        assertThat(service.list(HOST)).extracting(CaptureResponse::id).containsExactly(second, third, fourth);
        assertThat(dir.resolve(first + ".pcap")).doesNotExist();
        assertThat(Files.exists(dir.resolve(second + ".pcap"))).isTrue();
    }

    /**
     * An embedded host's captures are started on the one replica that runs its engine (another replica's start is
     * a 409, {@code RelayedEngine}), so that replica's lock serializes the check: of many started at once, exactly
     * max-running start.
     */
    @Test
    void ofCapturesStartedAtOnceOnAnEmbeddedHostNoMoreThanMaxRunningStart() throws Exception {
        CaptureService service = service(20, 4);
        int starts = 16;
        var barrier = new CyclicBarrier(starts);
        List<Future<Boolean>> started = new ArrayList<>();
        try (var threads = Executors.newFixedThreadPool(starts)) {
            for (int i = 0; i < starts; i++) {
                started.add(threads.submit(() -> {
                    barrier.await();
                    try {
                        service.start(HOST, ON_UPLINK);
                        return true;
                    } catch (ConflictException e) {
                        return false;
                    }
                }));
            }
            int running = 0;
            for (var start : started) {
                running += start.get() ? 1 : 0;
            }
            assertThat(running).isEqualTo(4);
        }
        assertThat(service.list(HOST)).hasSize(4).allMatch(c -> c.state() == CaptureStats.State.RUNNING);
    }

    private static final class MovableClock extends Clock {

        Instant now = Instant.now();

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private record OneEngine(HostEngine engine) implements HostEngines {

        @Override
        public void push(HostDataPath desired) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void remove(UUID hostId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public OptionalLong generation(UUID hostId) {
            return OptionalLong.of(1);
        }

        @Override
        public Set<UUID> reachable() {
            return Set.of(HOST);
        }

        @Override
        public Set<UUID> hosts() {
            return Set.of(HOST);
        }

        @Override
        public Optional<HostEngine> engine(UUID hostId) {
            return Optional.of(engine).filter(e -> hostId.equals(HOST));
        }

        @Override
        public Optional<String> fault(UUID hostId) {
            return Optional.empty();
        }
    }
}
