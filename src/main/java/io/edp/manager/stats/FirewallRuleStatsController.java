package io.edp.manager.stats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.edp.engine.RuleStats;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.firewall.FirewallRuleService;
import io.edp.manager.engines.HostEngines;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

@RestController
@Tag(name = "Distributed firewall")
class FirewallRuleStatsController {

    private final FirewallRuleService rules;
    private final HostEngines engines;

    FirewallRuleStatsController(FirewallRuleService rules, HostEngines engines) {
        this.rules = rules;
        this.engines = engines;
    }

    @GetMapping(path = "/api/v1/firewall/rules/{ruleId}/stats", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getFirewallRuleStats", summary = "A firewall rule's counters over every host",
            description = "Packets, bytes and connections the rule decided (fast-path hits included), summed over "
                    + "each host's workers and over the hosts, with each host's share. Every host's engine is "
                    + "asked at once, wherever it runs (this replica, another, an agent); a host whose engine did "
                    + "not answer within edp.agent.request-timeout is listed in unanswered, not counted. Counters "
                    + "belong to the rule's id: a push that keeps the rule (moved or edited) keeps them, deleting "
                    + "the rule drops them. 404 for an unknown rule.")
    FirewallRuleStatsResponse stats(@PathVariable long ruleId) {
        rules.get(ruleId); // 404 for an unknown rule
        var takenAt = Instant.now();
        var asked = new TreeMap<UUID, Future<Optional<RuleStats>>>();
        // each engine apart: a remote one is a round trip, bounded by the request timeout
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (UUID hostId : engines.reachable()) {
                asked.put(hostId, executor.submit(() -> engines.engine(hostId).map(HostEngine::ruleStats)
                        .flatMap(all -> all.stream().filter(r -> r.ruleId() == ruleId).findFirst())));
            }
        }
        var hosts = new ArrayList<FirewallRuleStatsResponse.HostCounters>();
        var unanswered = new ArrayList<FirewallRuleStatsResponse.UnansweredHost>();
        asked.forEach((hostId, answer) -> {
            if (answer.state() == Future.State.SUCCESS) {
                answer.resultNow().ifPresent(r -> hosts.add(new FirewallRuleStatsResponse.HostCounters(hostId,
                        r.packets(), r.bytes(), r.connections())));
            } else if (!(answer.exceptionNow() instanceof NotFoundException
                    || answer.exceptionNow() instanceof IllegalStateException)) { // else its engine went meanwhile
                var failure = answer.exceptionNow();
                unanswered.add(new FirewallRuleStatsResponse.UnansweredHost(hostId,
                        failure instanceof ResponseStatusException status ? status.getReason() : failure.toString()));
            }
        });
        return new FirewallRuleStatsResponse(ruleId, takenAt,
                hosts.stream().mapToLong(FirewallRuleStatsResponse.HostCounters::packets).sum(),
                hosts.stream().mapToLong(FirewallRuleStatsResponse.HostCounters::bytes).sum(),
                hosts.stream().mapToLong(FirewallRuleStatsResponse.HostCounters::connections).sum(),
                List.copyOf(hosts), List.copyOf(unanswered));
    }
}
