package io.edp.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import io.edp.engine.capture.CaptureStats;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.engines.HostEngine;

/**
 * The live captures this agent runs for its host, their files in its own capture directory ({@code --capture-dir}:
 * the manager names no path), each kept with the engine handle that started it, so that it still answers after the
 * engine was rebuilt. The manager holds what it shows of them (its agent_capture table); the agent uploads a file
 * when its capture ends ({@link #sweep}, run every half second), when it is stopped, and, for a running one, when an
 * operator asks for it ({@link EngineRequest.CaptureFile}). A capture whose final file and state the manager took is
 * forgotten here with its file; until then the file stays, so a manager unreachable for a while gets it later.
 */
final class AgentCaptures {

    static final String PCAP = "application/vnd.tcpdump.pcap";
    static final String PCAPNG = "application/x-pcapng";
    /** A pcapng file starts with its section header block's type; a classic pcap file with another magic. */
    private static final int PCAPNG_MAGIC = 0x0A0D0D0A;

    private final Path dir;
    private final ManagerClient manager;
    private final Consumer<String> log;
    private final Map<UUID, Started> captures = new ConcurrentHashMap<>();

    private record Started(HostEngine engine, Path file) {
    }

    AgentCaptures(Path dir, ManagerClient manager, Consumer<String> log) {
        this.dir = dir.toAbsolutePath().normalize();
        this.manager = manager;
        this.log = log;
    }

    Path dir() {
        return dir;
    }

    /**
     * Answers a request about a capture as the manager's API would; {@code engine}: the handle of the engine that
     * runs now, empty when none does (then only a start is refused, with 404).
     */
    AgentAnswer answer(EngineRequest.OfCapture request, Optional<HostEngine> engine) {
        return EngineRequest.answer(() -> switch (request) {
            case EngineRequest.StartCapture start -> start(start, engine.orElseThrow(() -> new NotFoundException(
                    "The host's agent runs no engine (the desired state gives it none, or its last configuration "
                            + "failed)")));
            case EngineRequest.Capture capture -> stats(capture.captureId()).orElse(null);
            case EngineRequest.StopCapture stop -> stop(stop.captureId());
            case EngineRequest.RemoveCapture remove -> {
                remove(remove.captureId());
                yield null;
            }
            case EngineRequest.CaptureFile file -> upload(file.captureId());
        });
    }

    private CaptureStats start(EngineRequest.StartCapture start, HostEngine engine) {
        var file = dir.resolve(start.captureId() + "." + start.spec().format().extension());
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("capture directory " + dir + ": " + e.getMessage(), e);
        }
        var stats = engine.startCapture(start.captureId(), start.spec(), file);
        captures.put(start.captureId(), new Started(engine, file));
        return stats;
    }

    private Optional<CaptureStats> stats(UUID id) {
        var started = captures.get(id);
        return started == null ? Optional.empty() : started.engine().capture(id);
    }

    /** Stops the capture and tries to upload its file at once (else the next sweep does); its final state. */
    private CaptureStats stop(UUID id) {
        var started = captures.get(id);
        if (started == null) {
            return null;
        }
        var stats = started.engine().stopCapture(id).orElse(null);
        try {
            upload(id);
        } catch (UncheckedIOException e) {
            log.accept("capture " + id + " stopped; its file is uploaded later: " + e.getCause().getMessage());
        }
        return stats;
    }

    private void remove(UUID id) {
        var started = captures.remove(id);
        if (started != null) {
            started.engine().forgetCapture(id);
            delete(started.file());
        }
    }

    /**
     * Uploads the capture's file as far as it holds whole records, with its state at that point, and forgets it
     * once that state was final; its state, null when the capture is not known here (forgotten after its final
     * upload). Synchronized: the sweep and a request never send one capture's file twice at once.
     */
    private synchronized CaptureStats upload(UUID id) {
        var started = captures.get(id);
        var stats = stats(id).orElse(null);
        if (stats == null) {
            return null;
        }
        try {
            manager.uploadCapture(id, started.file(), stats.fileBytes(), mediaType(started.file()), stats);
        } catch (ManagerClient.ManagerException e) {
            if (e.status != 404) {
                throw new UncheckedIOException(e);
            }
            log.accept("capture " + id + " is no longer known to the manager (removed); its file is deleted");
            remove(id);
            return stats;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted uploading capture " + id, e);
        }
        if (stats.state() == CaptureStats.State.ENDED) {
            remove(id);
        }
        return stats;
    }

    /** Uploads the files of the captures that ended and were not uploaded yet; what fails is tried next time. */
    void sweep() {
        for (UUID id : List.copyOf(captures.keySet())) {
            if (stats(id).map(s -> s.state() == CaptureStats.State.ENDED).orElse(false)) {
                try {
                    upload(id);
                } catch (UncheckedIOException e) {
                    // the manager is away: the file stays here, the next sweep tries again
                }
            }
        }
    }

    /** The file's format by its first bytes, so that any format a capture writes is served as what it is. */
    private static String mediaType(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(4);
            return magic.length == 4 && ByteBuffer.wrap(magic).getInt() == PCAPNG_MAGIC ? PCAPNG : PCAP;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.accept("capture file " + file + " not deleted: " + e);
        }
    }
}
