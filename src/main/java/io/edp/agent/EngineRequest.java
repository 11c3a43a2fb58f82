package io.edp.agent;

import java.util.UUID;
import java.util.function.Supplier;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.slowpath.ConnectionFilter;
import io.edp.manager.api.ConflictException;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.engines.HostEngine;
import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.databind.JsonNode;

/**
 * An operator's action on a host's engine, as it travels to whoever runs that engine: one {@link HostEngine}
 * operation and its arguments (the engine's records, as {@link EngineJson} writes them). The manager queues it; for
 * a host placed AGENT the agent's long poll carries it ({@link AgentDesiredState#requests}), for a host placed
 * EMBEDDED the replica running the embedded engines takes it; either {@link #run}s it on the engine and answers with
 * an {@link AgentAnswer}. Requests about a capture ({@link OfCapture}) only an agent answers: it keeps their files on
 * its machine and uploads them ({@link AgentCaptures}).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
        @JsonSubTypes.Type(value = EngineRequest.Config.class, name = "CONFIG"),
        @JsonSubTypes.Type(value = EngineRequest.Stats.class, name = "STATS"),
        @JsonSubTypes.Type(value = EngineRequest.Generation.class, name = "GENERATION"),
        @JsonSubTypes.Type(value = EngineRequest.FlushFlowCaches.class, name = "FLUSH_FLOW_CACHES"),
        @JsonSubTypes.Type(value = EngineRequest.TopFlows.class, name = "TOP_FLOWS"),
        @JsonSubTypes.Type(value = EngineRequest.RuleStats.class, name = "RULE_STATS"),
        @JsonSubTypes.Type(value = EngineRequest.ConnectionStats.class, name = "CONNECTION_STATS"),
        @JsonSubTypes.Type(value = EngineRequest.ListConnections.class, name = "LIST_CONNECTIONS"),
        @JsonSubTypes.Type(value = EngineRequest.ClearConnections.class, name = "CLEAR_CONNECTIONS"),
        @JsonSubTypes.Type(value = EngineRequest.Trace.class, name = "TRACE"),
        @JsonSubTypes.Type(value = EngineRequest.IpfixStats.class, name = "IPFIX_STATS"),
        @JsonSubTypes.Type(value = EngineRequest.PacketLogStats.class, name = "PACKET_LOG_STATS"),
        @JsonSubTypes.Type(value = EngineRequest.StartTraffic.class, name = "START_TRAFFIC"),
        @JsonSubTypes.Type(value = EngineRequest.Traffic.class, name = "TRAFFIC"),
        @JsonSubTypes.Type(value = EngineRequest.StopTraffic.class, name = "STOP_TRAFFIC"),
        @JsonSubTypes.Type(value = EngineRequest.FlowReceived.class, name = "FLOW_RECEIVED"),
        @JsonSubTypes.Type(value = EngineRequest.StartCapture.class, name = "START_CAPTURE"),
        @JsonSubTypes.Type(value = EngineRequest.Capture.class, name = "CAPTURE"),
        @JsonSubTypes.Type(value = EngineRequest.StopCapture.class, name = "STOP_CAPTURE"),
        @JsonSubTypes.Type(value = EngineRequest.RemoveCapture.class, name = "REMOVE_CAPTURE"),
        @JsonSubTypes.Type(value = EngineRequest.CaptureFile.class, name = "CAPTURE_FILE")})
public sealed interface EngineRequest {

    /** Runs the operation on the engine; its result as the engine's records (null: none, or an empty Optional). */
    Object run(HostEngine engine);

    /**
     * Runs the operation on the engine and answers as the manager's API would for an engine of its own: the result,
     * or the refusal's status (400 naming the field, 404, 409) and message. Whoever runs the engine answers so.
     */
    default AgentAnswer answer(HostEngine engine) {
        return answer(() -> run(engine));
    }

    /** {@code operation}'s result, or its refusal, as {@link #answer(HostEngine)} answers. */
    static AgentAnswer answer(Supplier<Object> operation) {
        try {
            return AgentAnswer.of(operation.get());
        } catch (InvalidRequestException e) {
            var problem = e.errors().getFirst();
            return AgentAnswer.refused(400, problem.field(), problem.message());
        } catch (ConflictException e) {
            return AgentAnswer.refused(409, null, e.getMessage());
        } catch (NotFoundException e) {
            return AgentAnswer.refused(404, null, e.getMessage());
        } catch (IllegalStateException e) {
            return AgentAnswer.refused(409, null, "The engine stopped meanwhile: " + e.getMessage());
        } catch (RuntimeException e) {
            return AgentAnswer.refused(500, null, e.toString());
        }
    }

    record Config() implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.config();
        }
    }

    record Stats() implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.stats();
        }
    }

    record Generation() implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            var generation = engine.generation();
            return generation.isPresent() ? generation.getAsLong() : null;
        }
    }

    record FlushFlowCaches() implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            engine.flushFlowCaches();
            return null;
        }
    }

    record TopFlows() implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.topFlows();
        }
    }

    record RuleStats() implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.ruleStats();
        }
    }

    record ConnectionStats() implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.connectionStats();
        }
    }

    record ListConnections(ConnectionFilter filter) implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.listConnections(filter);
        }
    }

    record ClearConnections(ConnectionFilter filter) implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.clearConnections(filter);
        }
    }

    record Trace(int port, byte[] frame) implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.trace(port, frame);
        }
    }

    record IpfixStats() implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.ipfixStats();
        }
    }

    record PacketLogStats() implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.packetLogStats();
        }
    }

    record StartTraffic(String nic, TrafficProfile profile) implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.startTraffic(nic, profile);
        }
    }

    record Traffic() implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.traffic().orElse(null);
        }
    }

    record StopTraffic() implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.stopTraffic().orElse(null);
        }
    }

    record FlowReceived(int flowId) implements EngineRequest {
        @Override
        public Object run(HostEngine engine) {
            return engine.flowReceived(flowId);
        }
    }

    /**
     * A request about one capture of a host placed AGENT. Its agent answers it from its own captures ({@link
     * AgentCaptures}), which write their files in its capture directory, outlive a rebuild of its engine and upload
     * their files to the manager; run on an engine of the manager's, it is refused: the manager starts its own
     * captures itself.
     */
    sealed interface OfCapture extends EngineRequest {

        UUID captureId();

        @Override
        default Object run(HostEngine engine) {
            throw new ConflictException("Capture requests are answered by a host's agent only");
        }
    }

    /** Starts a capture into a file of the agent's choosing, in its capture directory. */
    record StartCapture(UUID captureId, CaptureSpec spec) implements OfCapture {
    }

    /** The capture's state and counts; null when the agent does not know it (any more). */
    record Capture(UUID captureId) implements OfCapture {
    }

    /** Stops the capture and uploads its file; its final state, null when the agent does not know it. */
    record StopCapture(UUID captureId) implements OfCapture {
    }

    /** Stops the capture if it runs and forgets it with its file (the manager removed it). */
    record RemoveCapture(UUID captureId) implements OfCapture {
    }

    /**
     * Uploads the capture's file as far as it holds whole records, then answers its state; null when the agent
     * does not know it (it uploaded its final file and forgot it).
     */
    record CaptureFile(UUID captureId) implements OfCapture {
    }

    /** A request as the long poll hands it to the agent: the agent answers it by its id. */
    @Schema(description = "A request to the host's engine, handed out once: answer it with PUT engine-requests/{id}")
    record Queued(
            @Schema(description = "Id of the request", example = "5f0c2a8e-7d1b-4c9a-9e3f-1a2b3c4d5e6f") UUID id,
            @Schema(implementation = JsonNode.class, type = "object", description = "The operation (`kind`: "
                    + "CONFIG, STATS, GENERATION, FLUSH_FLOW_CACHES, TOP_FLOWS, RULE_STATS, CONNECTION_STATS, "
                    + "LIST_CONNECTIONS, CLEAR_CONNECTIONS, TRACE, IPFIX_STATS, PACKET_LOG_STATS, START_TRAFFIC, "
                    + "TRAFFIC, STOP_TRAFFIC, FLOW_RECEIVED, START_CAPTURE, CAPTURE, STOP_CAPTURE, REMOVE_CAPTURE, "
                    + "CAPTURE_FILE) and its arguments: io.edp.agent.EngineRequest as JSON")
            EngineRequest request) {
    }
}
