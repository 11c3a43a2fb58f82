package io.edp.manager.stats;

import java.time.Instant;

import io.edp.engine.EngineStats;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "What a host's engine sends besides forwarding, summed over its workers: broadcast and "
        + "multicast floods, the router's own answers, replies to rejected packets, and what each held back")
record ForwardingReport(
        @Schema(description = "When the snapshot was taken") Instant takenAt,
        @Schema(description = "Broadcast and multicast frames flooded within their VLAN") Floods floods,
        @Schema(description = "Packets the router sent for its gateway addresses and for routed packets it "
                + "could not forward") RouterReplies routerReplies,
        @Schema(description = "TCP resets and ICMP unreachables sent for packets a REJECT rule matched")
        RejectReplies rejectReplies) {

    @Schema(description = "Flooding and storm control")
    record Floods(
            @Schema(description = "Frames flooded", example = "120") long frames,
            @Schema(description = "Copies made for the flood's extra ports", example = "240") long copies,
            @Schema(description = "Copies not made for want of a free packet buffer", example = "0") long noBuffer,
            @Schema(description = "Frames storm control dropped: over a worker's stormControlFramesPerSecond",
                    example = "0") long rateLimited) {
    }

    @Schema(description = "The router's own packets, by kind")
    record RouterReplies(
            @Schema(description = "ARP replies for gateway addresses", example = "4") long arpReplies,
            @Schema(description = "Neighbor advertisements for gateway addresses", example = "2")
            long neighborAdvertisements,
            @Schema(description = "ICMP and ICMPv6 echo replies from gateway addresses", example = "3")
            long echoReplies,
            @Schema(description = "ICMP time exceeded / ICMPv6 time exceeded: TTL or hop limit ran out",
                    example = "1") long timeExceeded,
            @Schema(description = "ICMP fragmentation needed / ICMPv6 packet too big: over the egress MTU",
                    example = "0") long packetTooBig,
            @Schema(description = "Replies held back by the per-worker rate limit", example = "0") long rateLimited,
            @Schema(description = "Replies not sent for want of a free packet buffer", example = "0") long noBuffer,
            @Schema(description = "Packets for the router that it does not answer (other protocols)",
                    example = "0") long unanswered) {
    }

    @Schema(description = "Replies to rejected packets")
    record RejectReplies(
            @Schema(description = "Replies sent", example = "5") long sent,
            @Schema(description = "Replies held back by the per-worker rate limit", example = "0") long rateLimited,
            @Schema(description = "Replies not sent for want of a free packet buffer", example = "0")
            long noBuffer) {
    }

    static ForwardingReport of(EngineStats stats) {
        var flood = stats.flood();
        var router = stats.routerReplies();
        var reject = stats.rejectReplies();
        return new ForwardingReport(stats.takenAt(),
                new Floods(flood.frames(), flood.copies(), flood.noBuffer(), flood.rateLimited()),
                new RouterReplies(router.arpReplies(), router.neighborAdvertisements(), router.echoReplies(),
                        router.timeExceeded(), router.packetTooBig(), router.rateLimited(), router.noBuffer(),
                        router.unanswered()),
                new RejectReplies(reject.sent(), reject.rateLimited(), reject.noBuffer()));
    }
}
