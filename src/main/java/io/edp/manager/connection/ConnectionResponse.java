package io.edp.manager.connection;

import io.edp.engine.slowpath.ConnectionEntry;
import io.edp.engine.slowpath.ConnectionTable;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A connection the host's engine tracks, seen from the end that opened it")
record ConnectionResponse(
        @Schema(description = "The connection's name: protocol-source-sourcePort-destination-destinationPort; "
                + "what DELETE …/connections/{connectionId} takes", example = "6-10.0.0.1-40000-10.0.0.2-80") String id,
        @Schema(description = "IP protocol number", example = "6") int protocol,
        @Schema(description = "Initiator's address", example = "10.0.0.1") String source,
        @Schema(description = "Initiator's port (0 for ICMP, tracked by addresses)", example = "40000") int sourcePort,
        @Schema(description = "Responder's address", example = "10.0.0.2") String destination,
        @Schema(description = "Responder's port (0 for ICMP)", example = "80") int destinationPort,
        @Schema(description = "Tracking state", example = "ESTABLISHED") ConnectionState state,
        @Schema(description = "The rule that allowed it; 0 when no rule matched (allowed by default)", example = "1")
        int ruleId,
        @Schema(description = "Engine port the initiator's first packet came in on", example = "1") int ingressPort,
        @Schema(description = "Engine port it was switched to; -1 when routed", example = "0") int egressPort,
        @Schema(description = "Milliseconds since its last packet, either way, fast path included", example = "1250")
        long idleMillis,
        @Schema(description = "Milliseconds until it times out unless a packet comes", example = "3598750")
        long expiresInMillis) {

    static ConnectionResponse of(ConnectionEntry c) {
        return new ConnectionResponse(c.id(), c.protocol(), c.source(), c.sourcePort(), c.destination(),
                c.destinationPort(), ConnectionState.valueOf(ConnectionTable.stateName(c.state())), c.ruleId(),
                c.ingressPort(), c.egressPort(), c.idleMillis(), c.expiresInMillis());
    }
}
