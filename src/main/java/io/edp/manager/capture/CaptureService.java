package io.edp.manager.capture;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.edp.engine.capture.CaptureFilter;
import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.capture.CaptureStats;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.Cidr;
import io.edp.manager.api.ConflictException;
import io.edp.manager.api.FieldProblem;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.database.DataDirectoryProperties;
import io.edp.manager.engines.CaptureUploader;
import io.edp.manager.engines.EnginePorts;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.engines.HostEngines;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

/**
 * The hosts' live captures: an embedded host's in memory (as pktcap-uw's are: a capture belongs to the engine that runs
 * it, and ends with it), their files under {@code edp.capture.dir}; a host placed AGENT's in its agent and the
 * database, their files uploaded by the agent ({@link UploadedCaptures}), so that any replica serves them. Ended
 * captures are removed after {@code edp.capture.retention}, and beyond {@code edp.capture.max-kept} per host the oldest
 * ended one goes first.
 */
@Service
@EnableConfigurationProperties({CaptureProperties.class, DataDirectoryProperties.class})
class CaptureService {

    private static final Logger log = LoggerFactory.getLogger(CaptureService.class);

    private final HostEngines engines;
    private final CaptureProperties properties;
    /** The captures of hosts placed AGENT: their agents run them, the database holds them for every replica. */
    private final UploadedCaptures uploaded;
    private final Path dir;
    private final Clock clock;
    private final Map<UUID, Kept> captures = new ConcurrentHashMap<>();

    /**
     * A capture of an engine in this process: as started, its file, and the engine that runs it (which keeps
     * answering for it after the host's engine was replaced).
     */
    private record Kept(StartedCapture started, Path file, HostEngine engine) {

        UUID id() {
            return started.id();
        }

        UUID hostId() {
            return started.hostId();
        }

        Instant startedAt() {
            return started.startedAt();
        }

        CaptureStats stats() {
            // known to the engine until remove() forgets it, which a reader may just have missed
            return engine.capture(id()).orElseThrow(() -> new NotFoundException("Capture " + id() + " was removed"));
        }

        CaptureResponse response() {
            return started.response(stats());
        }

        boolean running() {
            return stats().state() == CaptureStats.State.RUNNING;
        }
    }

    @Autowired
    CaptureService(HostEngines engines, CaptureProperties properties, DataDirectoryProperties data,
                   UploadedCaptures uploaded) {
        this(engines, properties, data, uploaded, Clock.systemUTC());
    }

    CaptureService(HostEngines engines, CaptureProperties properties, DataDirectoryProperties data,
                   UploadedCaptures uploaded, Clock clock) {
        this.engines = engines;
        this.properties = properties;
        this.uploaded = uploaded;
        this.clock = clock;
        this.dir = (properties.dir() != null ? properties.dir() : data.dataDir().resolve("capture")).toAbsolutePath()
                .normalize();
        deleteFilesOfAPreviousRun();
    }

    /** Capture files no listing shows any more (the manager restarted) go once older than the retention. */
    private void deleteFilesOfAPreviousRun() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        Instant oldest = clock.instant().minus(properties.retention());
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.{pcap,pcapng}")) {
            for (Path file : files) {
                if (Files.getLastModifiedTime(file).toInstant().isBefore(oldest)) {
                    Files.deleteIfExists(file);
                }
            }
        } catch (IOException e) {
            log.warn("Could not delete the capture files of a previous run in {}: {}", dir, e.toString());
        }
    }

    CaptureResponse start(UUID hostId, CaptureRequest request) {
        var engine = engines.require(hostId);
        int port = EnginePorts.port(engine.config(), request.port(), "port");
        CaptureFilter filter = filter(request.filter());
        var direction = request.direction() != null ? request.direction() : CaptureRequest.Direction.BOTH;
        var spec = new CaptureSpec(port, CaptureSpec.Direction.valueOf(direction.name()), filter,
                or(request.snaplen(), CaptureRequest.MAX_SNAPLEN),
                request.maxPackets() != null ? request.maxPackets() : CaptureRequest.DEFAULT_MAX_PACKETS,
                Duration.ofSeconds(or(request.durationSeconds(), CaptureRequest.DEFAULT_DURATION_SECONDS)),
                CaptureSpec.DEFAULT_RING_FRAMES, Boolean.TRUE.equals(request.nanosecondTimestamps()),
                request.format() == CaptureRequest.Format.PCAPNG ? CaptureSpec.Format.PCAPNG : CaptureSpec.Format.PCAP);
        var filterShown = request.filter() != null ? request.filter()
                : new CaptureRequest.Filter(List.of(), List.of(), null);
        var started = new StartedCapture(UUID.randomUUID(), hostId, EnginePorts.name(engine.config(), port),
                direction, filterShown, clock.instant(), spec);
        if (engine instanceof CaptureUploader agent) { // not under this service's lock, as in delete
            return uploaded.start(started, agent);
        }
        synchronized (this) {
            List<Kept> ofHost = ofHost(hostId);
            long running = ofHost.stream().filter(Kept::running).count();
            if (running >= properties.maxRunning()) {
                throw tooManyRunning(hostId, running);
            }
            ofHost.stream().filter(k -> !k.running()).limit(Math.max(0, ofHost.size() + 1 - properties.maxKept()))
                    .forEach(this::remove);
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new UncheckedIOException("capture directory " + dir + ": " + e.getMessage(), e);
            }
            var file = dir.resolve(fileName(started.id(), spec));
            engine.startCapture(started.id(), spec, file);
            var kept = new Kept(started, file, engine);
            captures.put(started.id(), kept);
            return kept.response();
        }
    }

    static ConflictException tooManyRunning(UUID hostId, long running) {
        return new ConflictException("Host " + hostId + " has " + running + " captures running, the most "
                + "edp.capture.max-running allows; stop one first");
    }

    List<CaptureResponse> list(UUID hostId) {
        List<Kept> ofHost = ofHost(hostId);
        if (ofHost.isEmpty()) {
            // 404 for a host without an engine; an agent's captures are the database's
            if (engines.require(hostId) instanceof CaptureUploader agent) {
                return uploaded.list(hostId, agent);
            }
        }
        return ofHost.stream().map(Kept::response).toList();
    }

    CaptureResponse get(UUID hostId, UUID captureId) {
        Kept kept = kept(hostId, captureId);
        return kept != null ? kept.response() : uploaded.get(hostId, captureId, agent(hostId, captureId));
    }

    static String fileName(UUID id, CaptureSpec spec) {
        return id + "." + spec.format().extension();
    }

    /** The capture's file as far as it holds whole records, that length, its name and its format's media type. */
    Pcap pcap(UUID hostId, UUID captureId) {
        Kept kept = kept(hostId, captureId);
        if (kept == null) {
            return uploaded.pcap(hostId, captureId, agent(hostId, captureId));
        }
        long length = kept.stats().fileBytes();
        try {
            return new Pcap(new Prefix(Files.newInputStream(kept.file()), length), length,
                    fileName(captureId, kept.started().spec()), mediaType(kept.started().spec().format()));
        } catch (IOException e) {
            throw new UncheckedIOException("capture file " + kept.file() + ": " + e.getMessage(), e);
        }
    }

    static String mediaType(CaptureSpec.Format format) {
        return format == CaptureSpec.Format.PCAPNG ? CaptureController.PCAPNG : CaptureController.PCAP;
    }

    /** A capture's file: its bytes, their number, a file name and the media type of its format. */
    record Pcap(InputStream content, long length, String name, String mediaType) {
    }

    /** Stops a running capture (its final state), or removes an ended one with its file (empty). */
    Optional<CaptureResponse> delete(UUID hostId, UUID captureId) {
        Kept kept = kept(hostId, captureId);
        if (kept == null) { // not under this service's lock: the agent answers over the network
            return uploaded.delete(hostId, captureId, agent(hostId, captureId));
        }
        synchronized (this) {
            if (kept.running()) {
                kept.engine().stopCapture(captureId);
                return Optional.of(kept.response());
            }
            remove(kept);
            return Optional.empty();
        }
    }

    /** Removes ended captures older than the retention; the scheduler runs it every minute. */
    @Scheduled(fixedDelay = 1, initialDelay = 1, timeUnit = java.util.concurrent.TimeUnit.MINUTES)
    synchronized void cleanUp() {
        Instant oldest = clock.instant().minus(properties.retention());
        for (Kept kept : new ArrayList<>(captures.values())) {
            Instant ended = kept.stats().endedAt();
            if (ended != null && ended.isBefore(oldest)) {
                remove(kept);
            }
        }
        try {
            uploaded.cleanUp(oldest);
        } catch (DataAccessException e) {
            log.debug("Agents' captures not cleaned up (the database is away): {}", e.toString());
        }
    }

    private void remove(Kept kept) {
        captures.remove(kept.id());
        kept.engine().forgetCapture(kept.id()); // stops it if its host's engine went away with it running
        try {
            Files.deleteIfExists(kept.file());
        } catch (IOException e) {
            log.warn("Could not delete capture file {}: {}", kept.file(), e.toString());
        }
    }

    private List<Kept> ofHost(UUID hostId) {
        return captures.values().stream().filter(k -> k.hostId().equals(hostId))
                .sorted(Comparator.comparing(Kept::startedAt)).toList();
    }

    /** The capture of an engine in this process, or null. */
    private Kept kept(UUID hostId, UUID captureId) {
        Kept kept = captures.get(captureId);
        return kept != null && kept.hostId().equals(hostId) ? kept : null;
    }

    /** The engine of a host placed AGENT, whose captures the database holds; 404 for any other host. */
    private CaptureUploader agent(UUID hostId, UUID captureId) {
        if (engines.engine(hostId).orElse(null) instanceof CaptureUploader agent) {
            return agent;
        }
        throw noCapture(hostId, captureId, properties.retention());
    }

    static NotFoundException noCapture(UUID hostId, UUID captureId, Duration retention) {
        return new NotFoundException("Host " + hostId + " has no capture " + captureId + " (an ended capture is "
                + "removed after " + retention + ", edp.capture.retention)");
    }

    /** The first {@code length} bytes of a stream: the part of a running capture's file that holds whole records. */
    private static final class Prefix extends FilterInputStream {

        private long remaining;

        Prefix(InputStream in, long length) {
            super(in);
            remaining = length;
        }

        @Override
        public int read() throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int b = super.read();
            remaining -= b >= 0 ? 1 : 0;
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int n = super.read(buffer, offset, (int) Math.min(length, remaining));
            remaining -= Math.max(n, 0);
            return n;
        }
    }

    private static CaptureFilter filter(CaptureRequest.Filter f) {
        if (f == null) {
            return CaptureFilter.ALL;
        }
        List<FieldProblem> problems = new ArrayList<>();
        List<Cidr> addresses = new ArrayList<>();
        List<String> given = f.addresses() == null ? List.of() : f.addresses();
        for (int i = 0; i < given.size(); i++) {
            String field = "filter.addresses[" + i + "]";
            try {
                addresses.add(Cidr.parse(given.get(i), field));
            } catch (IllegalArgumentException e) { // "field: why"
                problems.add(new FieldProblem(field, e.getMessage().substring(field.length() + 2)));
            }
        }
        int protocol = protocol(f.protocol());
        if (protocol > 255) {
            problems.add(new FieldProblem("filter.protocol", "must be 0..255"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        return new CaptureFilter(addresses, f.ports() == null ? List.of() : f.ports(), protocol);
    }

    private static int protocol(String text) {
        return switch (text == null ? "" : text) {
            case "" -> CaptureFilter.ANY_PROTOCOL;
            case "tcp" -> FlowKey.PROTO_TCP;
            case "udp" -> FlowKey.PROTO_UDP;
            case "icmp" -> FlowKey.PROTO_ICMP;
            case "icmpv6" -> FlowKey.PROTO_ICMPV6;
            case "sctp" -> 132;
            default -> Integer.parseInt(text); // the request's pattern let digits only through
        };
    }

    private static int or(Integer value, int fallback) {
        return value == null ? fallback : value;
    }
}
