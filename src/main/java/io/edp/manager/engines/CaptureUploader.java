package io.edp.manager.engines;

import java.util.Optional;
import java.util.UUID;

import io.edp.engine.capture.CaptureStats;

/**
 * A host's engine whose captures write their files on another machine (an agent's), which uploads them to the
 * manager's database: {@link #startCapture}'s file is then chosen there, and a capture's state and file are the
 * database's once it ended, so that every replica serves them.
 */
public interface CaptureUploader extends HostEngine {

    /**
     * Has the engine's process upload capture {@code captureId}'s file as far as it holds whole records, and its
     * state; that state, empty when the process does not know the capture (it uploaded the final file and forgot
     * it, or restarted).
     */
    Optional<CaptureStats> uploadCapture(UUID captureId);
}
