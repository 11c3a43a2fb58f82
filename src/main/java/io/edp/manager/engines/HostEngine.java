package io.edp.manager.engines;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.RuleStats;
import io.edp.engine.TopFlows;
import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.capture.CaptureStats;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.packetlog.PacketLogStats;
import io.edp.engine.slowpath.ConnectionEntry;
import io.edp.engine.slowpath.ConnectionFilter;
import io.edp.engine.slowpath.ConnectionTableStats;
import io.edp.engine.telemetry.IpfixStats;
import io.edp.engine.trace.PacketTrace;

/**
 * One host's engine as the rest of the manager reaches it, wherever it runs: in this process
 * ({@link InProcessEngine}) or in an agent on the host. Every operation takes and returns immutable records, so each
 * can travel as one JSON request and answer; none hands out a live engine object. A handle belongs to one engine:
 * when the host's engine is rebuilt, {@link HostEngines#engine} gives a new handle, and the old one keeps answering
 * for what it started (captures, a traffic run).
 *
 * <p>Bad input is refused with {@link io.edp.manager.api.InvalidRequestException} (400, naming the field),
 * a conflict with {@link io.edp.manager.api.ConflictException} (409), an engine stopped meanwhile with
 * {@link IllegalStateException}.
 */
public interface HostEngine {

    /** The configuration the engine runs: its ports, vNICs and rules name what the operations below address. */
    EngineConfig config();

    /** The host's desired generation this engine runs; empty where its owner does not track it (in an agent). */
    OptionalLong generation();

    /**
     * A statistics snapshot of workers, flow caches, NIC queues, TLB, verifier and drops; it says when it was
     * taken.
     */
    EngineStats stats();

    /** Each worker's last top-flows snapshot; it says when it was taken. */
    TopFlows topFlows();

    /** The counters of each rule of the running rule set. */
    List<RuleStats> ruleStats();

    /** The connection table's capacity, entries and connections per state. */
    ConnectionTableStats connectionStats();

    /** The live connections the filter selects. */
    List<ConnectionEntry> listConnections(ConnectionFilter filter);

    /** Clears the connections the filter selects (and the flow-cache entries resting on them); how many. */
    int clearConnections(ConnectionFilter filter);

    /** Empties every worker's flow cache. */
    void flushFlowCaches();

    /** Traces {@code frame} entering at engine port {@code port} without forwarding it; 400 on {@code ingress}. */
    PacketTrace trace(int port, byte[] frame);

    /** The IPFIX exporter's counters. */
    IpfixStats ipfixStats();

    /** The firewall packet log's counters. */
    PacketLogStats packetLogStats();

    /**
     * Starts capture {@code captureId} into the pcap file {@code file} on the engine's machine; 400 on {@code port}
     * when the spec's port went away meanwhile.
     */
    CaptureStats startCapture(UUID captureId, CaptureSpec spec, Path file);

    /** Capture {@code captureId}'s counters and state, if this engine started it and it was not forgotten. */
    Optional<CaptureStats> capture(UUID captureId);

    /** Stops capture {@code captureId} if it runs; its final counters, if this engine knows it. */
    Optional<CaptureStats> stopCapture(UUID captureId);

    /** Stops capture {@code captureId} if it runs, and forgets it (its file stays: the caller removes it). */
    void forgetCapture(UUID captureId);

    /**
     * Starts a traffic profile on the loopback physical NIC {@code nic}: 400 on {@code nic} for another NIC, 400 on
     * {@code profile} for a profile the NIC refuses, 409 while a run started on this engine is running.
     */
    TrafficRun startTraffic(String nic, TrafficProfile profile);

    /** The last run started on this engine, with its counters since it started. */
    Optional<TrafficRun> traffic();

    /** Stops the last run started on this engine; its counters, if there was one. */
    Optional<TrafficRun> stopTraffic();

    /** Frames of traffic flow {@code flowId} that reached any loopback NIC of the engine since it started. */
    long flowReceived(int flowId);
}
