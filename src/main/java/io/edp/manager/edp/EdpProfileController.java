package io.edp.manager.edp;

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
@RequestMapping(path = "/api/v1/edp-profiles", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "EDP configuration")
class EdpProfileController {

    private final EdpProfileService profiles;

    EdpProfileController(EdpProfileService profiles) {
        this.profiles = profiles;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "createEdpProfile", summary = "Add an EDP profile")
    ResponseEntity<EdpProfileResponse> create(@Valid @RequestBody EdpProfileRequest request) {
        var profile = profiles.create(request);
        return VersionedResponses.created(profile.name(), profile);
    }

    @GetMapping
    @Operation(operationId = "listEdpProfiles", summary = "List EDP profiles",
            description = "Sortable by name; `name` finds one profile (a page of zero or one).")
    PageResponse<EdpProfileResponse> list(@ParameterObject @Valid PageParams paging,
            @Parameter(description = "Exactly this name: a page of zero or one profile", example = "edp-gold")
            @RequestParam(required = false) @Size(max = 63) String name) {
        return PageResponse.of(profiles.list(name, paging.toPageable(Set.of("name"), "name")));
    }

    @GetMapping("/{name}")
    @Operation(operationId = "getEdpProfile", summary = "Get an EDP profile")
    ResponseEntity<EdpProfileResponse> get(@PathVariable String name) {
        return VersionedResponses.ok(profiles.get(name));
    }

    @PutMapping(path = "/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "replaceEdpProfile", summary = "Replace an EDP profile",
            description = "Bumps the generation of every host that follows the profile, in the same transaction. "
                    + "Idempotent: an identical PUT keeps the ETag and the generations.")
    ResponseEntity<EdpProfileResponse> replace(@PathVariable String name, IfMatch ifMatch,
                                               @Valid @RequestBody EdpProfileRequest request) {
        return VersionedResponses.ok(profiles.replace(name, ifMatch, request));
    }

    @DeleteMapping("/{name}")
    @Operation(operationId = "deleteEdpProfile", summary = "Delete an EDP profile",
            description = "409 while hosts follow it.")
    ResponseEntity<Void> delete(@PathVariable String name, IfMatch ifMatch) {
        profiles.delete(name, ifMatch);
        return ResponseEntity.noContent().build();
    }
}
