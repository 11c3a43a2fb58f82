package io.edp.manager.api;

import java.net.URI;

import org.springframework.http.ResponseEntity;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** Responses that carry their resource's ETag. */
public final class VersionedResponses {

    private VersionedResponses() {
    }

    public static <T extends Versioned> ResponseEntity<T> ok(T body) {
        return ResponseEntity.ok().eTag(ETags.of(body.version())).body(body);
    }

    /** 201 with the new resource's {@code Location}: the current request URI plus its id. */
    public static <T extends Versioned> ResponseEntity<T> created(Object id, T body) {
        URI location = ServletUriComponentsBuilder.fromCurrentRequestUri().path("/{id}").buildAndExpand(id).toUri();
        return ResponseEntity.created(location).eTag(ETags.of(body.version())).body(body);
    }
}
