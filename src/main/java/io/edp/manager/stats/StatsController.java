package io.edp.manager.stats;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;

import io.edp.manager.api.PageParams;
import io.edp.manager.api.PageResponse;
import io.edp.manager.api.WithoutDatabase;
import io.edp.manager.engines.HostEngines;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Sort;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/hosts/{hostId}/stats", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Statistics", description = "Counters of a host's engine; each answer is one snapshot and says when it "
        + "was taken. 404 while the host runs no engine.")
@WithoutDatabase // reads the engines in memory: answers while the database is away
class StatsController {

    private final HostEngines engines;
    private final SortedTopFlows sortedFlows = new SortedTopFlows();

    StatsController(HostEngines engines) {
        this.engines = engines;
    }

    @GetMapping("/flow-cache")
    @Operation(operationId = "getFlowCacheStats", summary = "Flow cache per worker",
            description = "Hits, misses, slow-path packets, insertions and their failures, evictions, expirations, "
                    + "revalidations, entries, capacity and occupancy (with NSX's 0/25/50/75/90/95 % buckets).")
    FlowCacheReport flowCache(@PathVariable UUID hostId) {
        return StatsReports.flowCache(engines.require(hostId).stats(), engines.generation(hostId).orElse(0));
    }

    @PostMapping("/flow-cache/flush")
    @Operation(operationId = "flushFlowCaches", summary = "Empty every worker's flow cache",
            description = "The next packet of each flow runs the IOChain again.")
    ResponseEntity<Void> flush(@PathVariable UUID hostId) {
        engines.require(hostId).flushFlowCaches();
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/threads")
    @Operation(operationId = "getThreadStats",
            summary = "Worker threads: health, NUMA node, utilization, queues, packets")
    ThreadReport threads(@PathVariable UUID hostId) {
        return StatsReports.threads(engines.require(hostId).stats());
    }

    @GetMapping("/tlb")
    @Operation(operationId = "getTlbStats", summary = "Thread Load Balancer: settings, last loads, recent decisions",
            description = "Decisions list the trigger (OVERLOAD or TOPOLOGY), the outcome and the queue moves.")
    TlbReport tlb(@PathVariable UUID hostId) {
        var stats = engines.require(hostId).stats();
        return TlbReport.of(stats.takenAt(), stats.tlb());
    }

    @GetMapping("/verifier")
    @Operation(operationId = "getVerifierStats", summary = "Live verifier: checks, mismatches, the last mismatches",
            description = "With verifierSampleRate N > 0 one fast-path hit in N is re-evaluated through the slow "
                    + "path without side effects; a mismatch lists the flow, the cached action and the slow path's.")
    VerifierReport verifier(@PathVariable UUID hostId) {
        return VerifierReport.of(engines.require(hostId).stats());
    }

    @GetMapping("/forwarding")
    @Operation(operationId = "getForwardingStats", summary = "Floods, the router's own replies, reject replies",
            description = "Broadcast and multicast frames flooded within their VLAN (and those storm control "
                    + "dropped), ARP / neighbor advertisements / echo replies for gateway addresses, ICMP time "
                    + "exceeded and packet too big, TCP resets and ICMP unreachables for REJECT rules: sent and "
                    + "held back, summed over the workers.")
    ForwardingReport forwarding(@PathVariable UUID hostId) {
        return ForwardingReport.of(engines.require(hostId).stats());
    }

    @GetMapping("/nic-queues")
    @Operation(operationId = "getNicQueueStats", summary = "Ports and their RX queues: load and owning worker")
    NicQueueReport nicQueues(@PathVariable UUID hostId) {
        return StatsReports.nicQueues(engines.require(hostId).stats());
    }

    @GetMapping("/firewall-rules")
    @Operation(operationId = "getHostFirewallRuleStats", summary = "Firewall rule counters",
            description = "Per rule of the running rule set, by id: packets and bytes it decided (matched, or let "
                    + "through as part of a connection it allowed; fast-path hits included) and connections it "
                    + "allowed to start, summed over the workers. Counters belong to the rule's id: a push that "
                    + "keeps the rule (moved, edited, or with an engine rebuilt) keeps them; a push without it drops "
                    + "them.")
    FirewallRuleStatsReport firewallRules(@PathVariable UUID hostId) {
        var rules = engines.require(hostId).ruleStats();
        return new FirewallRuleStatsReport(Instant.now(), rules.stream().map(FirewallRuleCounters::of).toList());
    }

    @GetMapping("/connections")
    @Operation(operationId = "getConnectionTableStats", summary = "Connection table: capacity, entries, per state",
            description = "Read one stripe at a time while packets keep changing the table: no atomic image.")
    ConnectionTableReport connections(@PathVariable UUID hostId) {
        return ConnectionTableReport.of(Instant.now(), engines.require(hostId).connectionStats());
    }

    @GetMapping("/flows")
    @Operation(operationId = "listTopFlows", summary = "Top flows, from each worker's last flow cache snapshot",
            description = "Every 500 ms each worker walks its flow cache in slices between bursts and keeps its "
                    + "1,024 busiest entries by packets; this reads the last snapshots without involving the "
                    + "workers (takenAt says when they were taken). Sort by packets or bytes (default "
                    + "packets,desc), filter by worker; totalElements counts the snapshots' flows.")
    TopFlowsReport topFlows(@PathVariable UUID hostId, @ParameterObject @Valid PageParams paging,
            @Parameter(description = "Only the flows of this worker") @RequestParam(required = false)
            Integer worker) {
        var pageable = paging.toPageable(Set.of("packets", "bytes"), "packets");
        var top = engines.require(hostId).topFlows();
        // the client's order without the id tie-break PageParams adds (flows have none; worker and key break ties)
        var sort = paging.sort() == null || paging.sort().isEmpty() ? Sort.unsorted()
                : Sort.by(pageable.getSort().filter(o -> !o.getProperty().equals("id")).toList());
        var flows = sortedFlows.of(hostId, top, sort, worker);
        long offset = Math.min(pageable.getOffset(), flows.size());
        var page = flows.subList((int) offset, (int) Math.min(flows.size(), offset + pageable.getPageSize()))
                .stream().map(FlowEntry::of).toList();
        var metadata = PageResponse.of(new PageImpl<>(page, pageable, flows.size())).page();
        var passes = top.passes().stream()
                .map(p -> new TopFlowsReport.WorkerSnapshot(p.worker(), p.takenAt(), p.passNanos(), p.flows()))
                .toList();
        return new TopFlowsReport(top.takenAt(), top.perWorker(), passes, page, metadata);
    }
}
