package io.edp.manager.account;

import java.util.Set;

import io.edp.manager.api.IfMatch;
import io.edp.manager.api.MergePatch;
import io.edp.manager.api.PageParams;
import io.edp.manager.api.PageResponse;
import io.edp.manager.api.VersionedResponses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

// reading is for operators too: the contract's conventions list 403 for writes only
@ApiResponse(responseCode = "403", description = "The account is not an operator", content = @Content(
        mediaType = "application/problem+json", schema = @Schema(ref = "#/components/schemas/Problem")))
@RestController
@RequestMapping(path = "/api/v1/accounts", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Accounts", description = "Named users with a role, besides the bootstrap accounts of the environment; "
        + "operators only")
class AccountController {

    private final AccountService accounts;
    private final MergePatch mergePatch;

    AccountController(AccountService accounts, MergePatch mergePatch) {
        this.accounts = accounts;
        this.mergePatch = mergePatch;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createAccount", summary = "Add a named account",
            description = "409 if the name is taken, by a named account or by a bootstrap account of the "
                    + "environment. The account can log in at once.")
    ResponseEntity<AccountResponse> create(@Valid @RequestBody AccountRequest request) {
        var account = accounts.create(request);
        return VersionedResponses.created(account.name(), account);
    }

    @GetMapping
    @Operation(operationId = "listAccounts", summary = "List named accounts", description = "Sortable by name.")
    PageResponse<AccountResponse> list(@ParameterObject @Valid PageParams paging) {
        return PageResponse.of(accounts.list(paging.toPageable(Set.of("name"), "name")));
    }

    @GetMapping("/{name}")
    @ApiResponse(responseCode = "404", description = "No such account", content = @Content(
            mediaType = "application/problem+json", schema = @Schema(ref = "#/components/schemas/Problem")))
    @Operation(operationId = "getAccount", summary = "Get a named account")
    ResponseEntity<AccountResponse> get(@PathVariable String name) {
        return VersionedResponses.ok(accounts.get(name));
    }

    @PatchMapping(path = "/{name}", consumes = MergePatch.MEDIA_TYPE)
    @ApiResponse(responseCode = "404", description = "No such account", content = @Content(
            mediaType = "application/problem+json", schema = @Schema(ref = "#/components/schemas/Problem")))
    @Operation(operationId = "patchAccount", summary = "Change a named account with a JSON Merge Patch",
            description = "Members `role`, `enabled` and `password`. Disabling takes effect from the account's next "
                    + "request: logins are checked against the database on every request. Accounts are never "
                    + "deleted, so that the audit trail's names stay unambiguous.")
    ResponseEntity<AccountResponse> patch(@PathVariable String name, IfMatch ifMatch, @RequestBody JsonNode patch) {
        return VersionedResponses.ok(accounts.update(name, ifMatch,
                current -> mergePatch.apply(current, patch, AccountChange.class)));
    }
}
