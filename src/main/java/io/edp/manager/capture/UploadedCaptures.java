package io.edp.manager.capture;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.edp.agent.EngineJson;
import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.capture.CaptureStats;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.api.RequestBodyTooLargeException;
import io.edp.manager.engines.CaptureUploader;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The captures of hosts placed AGENT, in the agent_capture table (V6_9): the agent runs them and keeps their files
 * on its machine until it uploads them ({@link #storeFile}, {@link #storeStats}); the table is what every replica
 * knows of them, so that any replica lists, shows, stops and serves them. While a capture runs, its state comes from
 * the agent; once the agent uploaded its final file and state, from the table. Kept and removed as an embedded
 * host's captures are ({@link CaptureService}).
 */
@Component
public class UploadedCaptures {

    /** A file's headers: pcap's 24 bytes, pcapng's section and interface blocks, with room to spare. */
    private static final long FILE_HEADERS = 64 * 1024;
    /** A record's header: pcap's 16 bytes, pcapng's enhanced packet block (32) and its padding, with room. */
    private static final long RECORD_HEADER = 64;

    private final JdbcClient jdbc;
    /** A transaction of its own for each start, never the caller's: its row is committed before the agent's upload. */
    private final TransactionTemplate transactions;
    private final CaptureProperties properties;

    UploadedCaptures(JdbcClient jdbc, PlatformTransactionManager transactions, CaptureProperties properties) {
        this.jdbc = jdbc;
        this.transactions = new TransactionTemplate(transactions);
        this.transactions.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.properties = properties;
    }

    /** A stored capture: as started, and the agent's last word on its state (null before its first upload). */
    private record Row(StartedCapture started, CaptureStats stats) {

        boolean ended() {
            return stats != null && stats.state() == CaptureStats.State.ENDED;
        }

        /**
         * Whether its agent has not reported its end for {@code after} past its time limit: the agent ended it by
         * then, so it is not running; its state is {@link #unreportedStats} until the agent reports.
         */
        boolean unreported(Instant now, Duration after) {
            return !ended() && started.endsBy().plus(after).isBefore(now);
        }

        /** Ended, UNREPORTED, at its time limit at the latest, with the counts of its last upload (none: zeros). */
        CaptureStats unreportedStats() {
            return ended(CaptureStats.EndReason.UNREPORTED, "its agent has not reported its end since its time "
                    + "limit (unreachable, or gone): counts and file as last uploaded; what the agent reports when "
                    + "it is back replaces this", started.endsBy());
        }

        /** Ended for {@code reason}, with the counts of its last upload (none: zeros). */
        CaptureStats ended(CaptureStats.EndReason reason, String failure, Instant endedAt) {
            return new CaptureStats(CaptureStats.State.ENDED, reason, failure, stats == null ? 0 : stats.captured(),
                    stats == null ? 0 : stats.dropped(), stats == null ? 0 : stats.bytes(),
                    stats == null ? 0 : stats.fileBytes(), endedAt);
        }
    }

    /** The most a capture's file may hold: every frame at its snaplen, in either format. */
    static long maxFileBytes(CaptureSpec spec) {
        return FILE_HEADERS + spec.maxPackets() * (spec.snaplen() + RECORD_HEADER);
    }

    /** Starts the capture in the host's agent, once the host's limits allow another one. */
    CaptureResponse start(StartedCapture started, CaptureUploader engine) {
        long maxFile = maxFileBytes(started.spec());
        if (maxFile > properties.maxAgentFile().toBytes()) {
            throw new InvalidRequestException("maxPackets", "a capture on a host placed AGENT may write at most "
                    + properties.maxAgentFile() + " (edp.capture.max-agent-file), which its agent uploads; "
                    + started.spec().maxPackets() + " frames of " + started.spec().snaplen() + " bytes could write "
                    + maxFile + " bytes: capture fewer frames or a shorter snaplen");
        }
        // committed before the agent starts it: a capture that ends at once finds its row for its upload
        transactions.executeWithoutResult(tx -> admit(started, maxFile));
        try {
            // the path is the agent's to choose, in its own capture directory
            return started.response(engine.startCapture(started.id(), started.spec(),
                    Path.of(started.id() + ".pcap")));
        } catch (RuntimeException e) {
            delete(started.id());
            throw e;
        }
    }

    List<CaptureResponse> list(UUID hostId, CaptureUploader engine) {
        return jdbc.sql("SELECT shown::text, stats::text FROM agent_capture WHERE host_id = :host ORDER BY started_at")
                .param("host", hostId).query((rs, n) -> row(rs.getString(1), rs.getString(2))).list().stream()
                .map(row -> row.started().response(stats(row, engine))).toList();
    }

    CaptureResponse get(UUID hostId, UUID captureId, CaptureUploader engine) {
        var row = require(hostId, captureId);
        return row.started().response(stats(row, engine));
    }

    /**
     * The capture's file as the agent uploaded it: a running capture's as far as written now (the agent uploads it
     * first), an ended one's whole.
     */
    CaptureService.Pcap pcap(UUID hostId, UUID captureId, CaptureUploader engine) {
        if (running(require(hostId, captureId)) && engine.uploadCapture(captureId).isEmpty()) {
            lost(hostId, captureId); // the agent forgot it: uploaded meanwhile, or restarted
        }
        return jdbc.sql("SELECT file, media_type FROM agent_capture WHERE id = :id")
                .param("id", captureId).query((rs, n) -> {
                    byte[] file = rs.getBytes(1);
                    if (file == null) {
                        throw new NotFoundException("The file of capture " + captureId + " has not reached the "
                                + "manager: its agent has not uploaded it (unreachable since, or restarted before "
                                + "it did)");
                    }
                    String mediaType = rs.getString(2);
                    return new CaptureService.Pcap(new ByteArrayInputStream(file), file.length,
                            captureId + (mediaType.endsWith("pcapng") ? ".pcapng" : ".pcap"), mediaType);
                }).optional().orElseThrow(() -> new NotFoundException("Capture " + captureId + " was removed"));
    }

    /** Stops a running capture (its final state: the agent uploads its file), or removes an ended one (empty). */
    Optional<CaptureResponse> delete(UUID hostId, UUID captureId, CaptureUploader engine) {
        var row = require(hostId, captureId);
        // an unreported one is not asked for: its agent, if it comes back with it, finds it removed (404) and
        // deletes its file
        if (running(row)) {
            var now = engine.capture(captureId);
            if (now.isPresent() && now.get().state() == CaptureStats.State.RUNNING) {
                return Optional.of(row.started().response(engine.stopCapture(captureId).orElse(now.get())));
            }
            engine.forgetCapture(captureId); // ended, its file not taken yet: the agent deletes it
        }
        delete(captureId);
        return Optional.empty();
    }

    /**
     * Checks the host's limit and stores the capture, in one transaction that first locks the host's row: the
     * starts of one host, through any replica, take turns, so that each counts the ones committed before it and
     * no more than edp.capture.max-running run at once.
     */
    private void admit(StartedCapture started, long maxFile) {
        UUID hostId = started.hostId();
        jdbc.sql("SELECT 1 FROM host WHERE id = :host FOR NO KEY UPDATE").param("host", hostId).query(Integer.class)
                .optional().orElseThrow(() -> new NotFoundException("Host " + hostId + " was removed"));
        long running = jdbc.sql("""
                        SELECT count(*) FROM agent_capture
                         WHERE host_id = :host AND ended_at IS NULL AND ends_by > :now""")
                .param("host", hostId).param("now", Timestamp.from(started.startedAt())).query(Long.class).single();
        if (running >= properties.maxRunning()) {
            throw CaptureService.tooManyRunning(hostId, running);
        }
        jdbc.sql("""
                        DELETE FROM agent_capture WHERE id IN (
                            SELECT id FROM agent_capture WHERE host_id = :host AND ended_at IS NOT NULL
                             ORDER BY started_at
                             LIMIT greatest(0, (SELECT count(*) FROM agent_capture WHERE host_id = :host) + 1
                                               - :maxKept))""")
                .param("host", hostId).param("maxKept", properties.maxKept()).update();
        jdbc.sql("""
                        INSERT INTO agent_capture (id, host_id, shown, started_at, ends_by, max_file_bytes)
                        VALUES (:id, :host, CAST(:shown AS jsonb), :started, :endsBy, :maxFile)""")
                .param("id", started.id()).param("host", hostId)
                .param("shown", EngineJson.MAPPER.writeValueAsString(started))
                .param("started", Timestamp.from(started.startedAt()))
                .param("endsBy", Timestamp.from(started.endsBy()))
                .param("maxFile", maxFile).update();
    }

    /** Removes ended captures that ended before {@code oldest}, and those that never told their end, by their limit. */
    void cleanUp(Instant oldest) {
        jdbc.sql("DELETE FROM agent_capture WHERE coalesce(ended_at, ends_by) < :oldest")
                .param("oldest", Timestamp.from(oldest)).update();
    }

    /**
     * Stores the file the host's agent uploaded for one of its captures, as far as written; {@code mediaType}: its
     * format, served back as it is. 404 when the host has no such capture (removed meanwhile: the agent deletes
     * its file), 413 beyond what the capture's limits can write.
     */
    public void storeFile(UUID hostId, UUID captureId, String mediaType, InputStream body) throws IOException {
        long max = jdbc.sql("SELECT max_file_bytes FROM agent_capture WHERE id = :id AND host_id = :host")
                .param("id", captureId).param("host", hostId).query(Long.class).optional()
                .orElseThrow(() -> notOfHost(captureId));
        byte[] file = body.readNBytes(Math.toIntExact(max + 1));
        if (file.length > max) {
            throw new RequestBodyTooLargeException(max);
        }
        jdbc.sql("""
                        UPDATE agent_capture SET file = :file, media_type = :mediaType, uploaded_at = now()
                         WHERE id = :id AND host_id = :host""")
                .param("file", file).param("mediaType", mediaType).param("id", captureId).param("host", hostId)
                .update();
    }

    /**
     * Stores the state of one of its captures as the host's agent uploaded it with its file: final once ENDED. 404
     * when the host has no such capture.
     */
    public void storeStats(UUID hostId, UUID captureId, CaptureStats stats) {
        if (store(hostId, captureId, stats) == 0) {
            throw notOfHost(captureId);
        }
    }

    private int store(UUID hostId, UUID captureId, CaptureStats stats) {
        return jdbc.sql("""
                        UPDATE agent_capture SET stats = CAST(:stats AS jsonb), ended_at = :endedAt
                         WHERE id = :id AND host_id = :host""")
                .param("stats", EngineJson.MAPPER.writeValueAsString(stats))
                .param("endedAt", stats.state() == CaptureStats.State.ENDED && stats.endedAt() != null
                        ? Timestamp.from(stats.endedAt()) : null, Types.TIMESTAMP)
                .param("id", captureId).param("host", hostId).update();
    }

    private static NotFoundException notOfHost(UUID captureId) {
        return new NotFoundException("This host has no capture " + captureId + " (removed, or another host's)");
    }

    /** A running capture's state from its agent; an ended one's from the table. */
    private CaptureStats stats(Row row, CaptureUploader engine) {
        if (row.ended()) {
            return row.stats();
        }
        if (!running(row)) {
            return row.unreportedStats();
        }
        var id = row.started().id();
        return engine.capture(id).orElseGet(() -> lost(row.started().hostId(), id));
    }

    /**
     * The final state of a capture its agent no longer knows: uploaded meanwhile (read again), else lost with a
     * restart of the agent, which is then recorded as its end.
     */
    private CaptureStats lost(UUID hostId, UUID captureId) {
        var row = require(hostId, captureId);
        if (row.ended()) {
            return row.stats();
        }
        var ended = row.ended(CaptureStats.EndReason.ENGINE_CLOSED,
                "its agent no longer knows it (it restarted before it uploaded its end)", Instant.now());
        store(hostId, captureId, ended);
        return ended;
    }

    /** Whether the capture's agent is asked for its state: neither ended nor {@link Row#unreported}. */
    private boolean running(Row row) {
        return !row.ended() && !row.unreported(Instant.now(), properties.unreportedAfter());
    }

    private Row require(UUID hostId, UUID captureId) {
        return jdbc.sql("SELECT shown::text, stats::text FROM agent_capture WHERE id = :id AND host_id = :host")
                .param("id", captureId).param("host", hostId).query((rs, n) -> row(rs.getString(1), rs.getString(2)))
                .optional().orElseThrow(() -> CaptureService.noCapture(hostId, captureId, properties.retention()));
    }

    private static Row row(String shown, String stats) {
        return new Row(EngineJson.MAPPER.readValue(shown, StartedCapture.class),
                stats == null ? null : EngineJson.MAPPER.readValue(stats, CaptureStats.class));
    }

    private void delete(UUID captureId) {
        jdbc.sql("DELETE FROM agent_capture WHERE id = :id").param("id", captureId).update();
    }
}
