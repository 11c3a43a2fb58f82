package io.edp.manager.firewall;

import java.util.Set;

import io.edp.manager.api.GlobalDesiredState;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.PageParams;
import io.edp.manager.api.PageResponse;
import io.edp.manager.api.VersionedResponses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springdoc.core.annotations.ParameterObject;
import io.swagger.v3.oas.annotations.Parameter;
import jakarta.validation.constraints.Size;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@GlobalDesiredState
@RequestMapping(path = "/api/v1/firewall/rules", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Distributed firewall", description = "Global ordered rules, pushed to every host's engine")
class FirewallRuleController {

    private final FirewallRuleService rules;

    FirewallRuleController(FirewallRuleService rules) {
        this.rules = rules;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createFirewallRule", summary = "Add a firewall rule",
            description = "Bumps every host's generation; 400 lists each bad field (CIDR, ports, protocol, action).")
    ResponseEntity<FirewallRuleResponse> create(@Valid @RequestBody FirewallRuleRequest request) {
        var rule = rules.create(request);
        return VersionedResponses.created(rule.id(), rule);
    }

    @GetMapping
    @Operation(operationId = "listFirewallRules", summary = "List firewall rules",
            description = "In evaluation order by default (priority, then id); sortable by priority and name. "
                    + "`name` selects the rules of that name.")
    PageResponse<FirewallRuleResponse> list(@ParameterObject @Valid PageParams paging,
            @Parameter(description = "Exactly this name: a page of zero or one rule", example = "block-telnet")
            @RequestParam(required = false) @Size(max = 80) String name) {
        return PageResponse.of(rules.list(name, paging.toPageable(Set.of("priority", "name"), "priority")));
    }

    @GetMapping("/{ruleId}")
    @Operation(operationId = "getFirewallRule", summary = "Get a firewall rule")
    ResponseEntity<FirewallRuleResponse> get(@PathVariable long ruleId) {
        return VersionedResponses.ok(rules.get(ruleId));
    }

    @PutMapping(path = "/{ruleId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "replaceFirewallRule", summary = "Replace a firewall rule",
            description = "Idempotent: an identical PUT keeps the ETag and bumps no generation.")
    ResponseEntity<FirewallRuleResponse> replace(@PathVariable long ruleId, IfMatch ifMatch,
                                                 @Valid @RequestBody FirewallRuleRequest request) {
        return VersionedResponses.ok(rules.replace(ruleId, ifMatch, request));
    }

    @DeleteMapping("/{ruleId}")
    @Operation(operationId = "deleteFirewallRule", summary = "Delete a firewall rule")
    ResponseEntity<Void> delete(@PathVariable long ruleId, IfMatch ifMatch) {
        rules.delete(ruleId, ifMatch);
        return ResponseEntity.noContent().build();
    }
}
