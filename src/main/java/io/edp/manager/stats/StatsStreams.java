package io.edp.manager.stats;

import java.io.IOException;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.edp.engine.FlowStats;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.engines.HostEngines;
import io.edp.manager.traffic.TrafficService;
import jakarta.annotation.PreDestroy;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The open statistics streams: one scheduler thread times every stream's ticks, and each tick reads and sends its
 * snapshot on a virtual thread of its own, so a stream holds no request thread, no database connection and no permit
 * of the database's bulkhead while it is open, and a slow engine (an agent's, whose reads are round trips, or one
 * that does not answer) delays only its own stream: a tick due while the stream's previous one still runs is
 * skipped, and a read the engine did not answer in time (504) sends nothing. A stream ends
 * (an {@code end} event, then the response completes) when its host's engine goes: the host was deleted, or it has no
 * engine any more.
 */
@Component
@EnableConfigurationProperties(StatsStreamProperties.class)
class StatsStreams {

    static final Duration MIN_INTERVAL = Duration.ofMillis(200);
    static final Duration MAX_INTERVAL = Duration.ofSeconds(60);
    private static final Comparator<FlowStats> BUSIEST_FIRST = Comparator.comparingLong(FlowStats::packets)
            .reversed().thenComparingInt(FlowStats::worker).thenComparing(FlowStats::flow);

    private final HostEngines engines;
    private final TrafficService traffic;
    private final Semaphore open;
    private final int maxStreams;
    private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("edp-stats-stream").daemon().factory());

    StatsStreams(HostEngines engines, TrafficService traffic, StatsStreamProperties properties) {
        this.engines = engines;
        this.traffic = traffic;
        this.maxStreams = properties.maxStreams();
        this.open = new Semaphore(maxStreams);
    }

    /** Opens a stream of {@code hostId}'s statistics; 404 without an engine, 503 when all streams are taken. */
    SseEmitter open(UUID hostId, Duration interval) {
        engines.require(hostId);
        if (!open.tryAcquire()) {
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "The manager already serves "
                    + maxStreams + " statistics streams; close one or retry later.");
        }
        var stream = new Stream(hostId, new SseEmitter(0L)); // no timeout: it ends with its host or its client
        stream.start(interval);
        return stream.emitter;
    }

    @PreDestroy
    void close() {
        ticks.shutdownNow();
    }

    private final class Stream {

        private final UUID hostId;
        private final SseEmitter emitter;
        private final AtomicLong sequence = new AtomicLong();
        private final AtomicBoolean ended = new AtomicBoolean();
        private final AtomicBoolean ticking = new AtomicBoolean();
        private volatile ScheduledFuture<?> schedule;

        Stream(UUID hostId, SseEmitter emitter) {
            this.hostId = hostId;
            this.emitter = emitter;
        }

        void start(Duration interval) {
            emitter.onCompletion(this::release);
            emitter.onTimeout(this::release);
            emitter.onError(failure -> release());
            schedule = ticks.scheduleAtFixedRate(this::due, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
            if (ended.get()) {
                schedule.cancel(false); // it ended before it was scheduled
            }
        }

        /** On the scheduler: the tick runs apart, unless the previous one still runs. */
        private void due() {
            if (ticking.compareAndSet(false, true)) {
                Thread.ofVirtual().name("edp-stats-stream-" + hostId).start(() -> {
                    try {
                        tick();
                    } finally {
                        ticking.set(false);
                    }
                });
            }
        }

        private void tick() {
            if (ended.get()) {
                return;
            }
            try {
                var engine = engines.engine(hostId);
                if (engine.isEmpty()) {
                    emitter.send(SseEmitter.event().name("end")
                            .data(Map.of("reason", "host " + hostId + " has no engine any more"),
                                    MediaType.APPLICATION_JSON));
                    emitter.complete();
                    release();
                    return;
                }
                emitter.send(SseEmitter.event().name("snapshot").id(Long.toString(sequence.incrementAndGet()))
                        .data(snapshot(engine.get()), MediaType.APPLICATION_JSON));
            } catch (IllegalStateException engineClosedMeanwhile) {
                // the engine was stopped between the lookup and the snapshot: the next tick sees what replaced it
            } catch (ResponseStatusException e) {
                if (e.getStatusCode() != HttpStatus.GATEWAY_TIMEOUT) {
                    end(e);
                } // else the engine did not answer in time: nothing to send, the next tick asks again
            } catch (IOException | RuntimeException clientGone) {
                end(clientGone);
            }
        }

        private void end(Exception failure) {
            emitter.completeWithError(failure);
            release();
        }

        private StatsSnapshot snapshot(HostEngine engine) {
            var stats = engine.stats();
            return new StatsSnapshot(stats.takenAt(), StatsReports.threads(stats),
                    StatsReports.flowCache(stats, engines.generation(hostId).orElse(0)),
                    TlbReport.of(stats.takenAt(), stats.tlb()), StatsReports.nicQueues(stats),
                    engine.topFlows().flows().stream().sorted(BUSIEST_FIRST).limit(StatsSnapshot.TOP_FLOWS)
                            .map(FlowEntry::of).toList(),
                    traffic.current(engine).orElse(null));
        }

        /** Once, whichever way the stream ends: stop its ticks and give its place back. */
        private void release() {
            if (ended.compareAndSet(false, true)) {
                var scheduled = schedule;
                if (scheduled != null) {
                    scheduled.cancel(false);
                }
                open.release();
            }
        }
    }
}
