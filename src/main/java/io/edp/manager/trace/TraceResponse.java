package io.edp.manager.trace;

import java.util.function.IntFunction;

import io.edp.engine.packet.DropReason;
import io.edp.engine.trace.PacketTrace;
import io.edp.engine.trace.PacketTrace.CacheState;
import io.edp.engine.trace.PacketTrace.ConnectionState;
import io.edp.engine.trace.PacketTrace.Outcome;
import io.edp.engine.trace.PacketTrace.SwitchDecision;
import io.swagger.v3.oas.annotations.media.Schema;

/** A packet trace as the API answers it: the engine's stages, with ports named as the inventory names them. */
@Schema(description = "What the host's engine does with the packet, stage by stage; a stage not reached is null")
record TraceResponse(
        @Schema(description = "The frame traced, in hex") String frameHex,
        @Schema(description = "Where it enters") String ingress,
        @Schema(description = "The RX queue the NIC steers it to") int rxQueue,
        @Schema(description = "The worker that owns that queue: its flow cache was read") int worker,
        @Schema(description = "The host's desired generation this engine runs: the number of a write's "
                + "EDP-Generation header and of realization's realizedGeneration", example = "7") long generation,
        @Schema(description = "The engine's own table-set counter whose tables were read (as in /stats/flow-cache), "
                + "not a generation of the host", example = "3") int engineTablesVersion,
        @Schema(description = "The parsed flow key; null when the frame does not parse",
                example = "port 0 vlan 10 to 02:ed:00:00:00:01 tcp 10.0.0.1:49152 > 10.128.0.1:80") String flowKey,
        @Schema(description = "The switching stage; null when the frame does not parse") Switching switching,
        @Schema(description = "The firewall stage; null when the frame is not IP or switching found no "
                + "destination")
        Firewall firewall,
        @Schema(description = "The routing stage; null unless switched to the router and allowed by "
                + "the firewall") Routing routing,
        @Schema(description = "The owning worker's flow cache; null when the frame does not parse") FlowCache flowCache,
        @Schema(description = "The final verdict; always present") Verdict verdict) {

    @Schema(description = "The switching decision")
    record Switching(
            @Schema(description = "The VLAN switched in: the outer tag on an uplink, the vNIC's VLAN on a VM port")
            int segment,
            @Schema(description = "The destination MAC switching looked up", example = "02:ed:00:00:00:01")
            String destinationMac,
            @Schema(description = "TO_ROUTER: routed; KNOWN_MAC; DEFAULT_UPLINK: an unknown MAC from a VM port; "
                    + "UNKNOWN_MAC: dropped; FLOOD: broadcast or multicast, flooded in the segment")
            SwitchDecision decision,
            @Schema(description = "The port switching picked; null when routed or none") String output) {
    }

    @Schema(description = "The distributed firewall (IP packets)")
    record Firewall(
            @Schema(description = "The live connection the packet belongs to; NEW: none, the rules decide")
            ConnectionState connection,
            @Schema(description = "A later IP fragment: it takes its first fragment's decision") boolean laterFragment,
            @Schema(description = "The deciding rule's id (the connection's, or the first match); 0: none matched, "
                    + "allowed") int ruleId,
            @Schema(description = "Whether the firewall lets the packet through") boolean allowed) {
    }

    @Schema(description = "Routing (frames to the router's MAC)")
    record Routing(
            @Schema(description = "The longest matching route's prefix; null: no route") String prefix,
            @Schema(description = "The physical NIC it leaves by") String output,
            @Schema(description = "The next hop's MAC, the frame's new destination") String nextHop,
            @Schema(description = "The VLAN it leaves with; 0: untagged") int vlan) {
    }

    @Schema(description = "What the owning worker's flow cache holds for the flow key")
    record FlowCache(
            @Schema(description = "HIT: a current entry serves it; MISS; STALE: an entry of an older generation, "
                    + "expired, or idle past its connection; BYPASSED: always the slow path (TCP SYN/FIN/RST, QinQ, "
                    + "an E1000 port); DISABLED: LEGACY mode") CacheState state,
            @Schema(description = "The engine tables version (its low 16 bits) the entry was installed under; an "
                    + "entry of another is STALE. Null without an entry") Integer entryTablesVersion,
            @Schema(description = "Milliseconds until the entry expires (negative: expired); null without one")
            Long expiresInMillis,
            @Schema(description = "The action a current entry gives") String cachedAction,
            @Schema(description = "Whether the slow path's decision would be cached for the next packets")
            boolean installs) {
    }

    @Schema(description = "The final verdict")
    record Verdict(
            @Schema(description = "FORWARDED: it leaves by output; FLOODED to the segment's other ports; "
                    + "ANSWERED by the router (ARP, neighbor solicitation, ping to its gateway address; "
                    + "rate limited); DROPPED: see dropReason")
            Outcome outcome,
            @Schema(description = "The port it leaves by: a physical NIC's name or a vNIC's port name") String output,
            @Schema(description = "The frame as it leaves, rewritten (MACs, TTL, VLAN), in hex") String frameHex,
            @Schema(description = "Why it is dropped") DropReason dropReason,
            @Schema(description = "The firewall rule of the decision; 0: none") int ruleId,
            @Schema(description = "The action, as the flow cache and the slow path print it",
                    example = "output(port 2, PUSH 20, set_mac 2ed00000001>20000000fe, dec_ttl, rule 4)")
            String action,
            @Schema(description = "A REJECT: a TCP RST or ICMP unreachable goes back out of the ingress port "
                    + "(rate limited)") boolean rejectReply) {
    }

    /** Names the trace's ports with {@code portName} (engine port id to name). */
    static TraceResponse of(String frameHex, long generation, PacketTrace t,
            IntFunction<String> portName) {
        var s = t.switching();
        var f = t.firewall();
        var r = t.routing();
        var c = t.flowCache();
        var v = t.verdict();
        boolean entry = c != null && c.entryGeneration() >= 0;
        return new TraceResponse(frameHex, portName.apply(t.port()), t.rxQueue(), t.worker(), generation,
                t.generation(),
                t.flowKey(),
                s == null ? null : new Switching(s.segment(), s.destinationMac(), s.decision(),
                        s.outPort() < 0 ? null : portName.apply(s.outPort())),
                f == null ? null : new Firewall(f.connection(), f.laterFragment(), f.ruleId(), f.allowed()),
                r == null ? null : new Routing(r.route() == null ? null : r.route().prefix(),
                        r.outPort() < 0 ? null : portName.apply(r.outPort()), r.nextHop(), r.vlan()),
                c == null ? null : new FlowCache(c.state(), entry ? c.entryGeneration() : null,
                        entry ? c.expiresInMillis() : null, c.cachedAction(), c.installs()),
                new Verdict(v.outcome(), v.outPort() < 0 ? null : portName.apply(v.outPort()), v.frameHex(),
                        v.dropReason(), v.ruleId(), v.action(), v.rejectReply()));
    }
}
