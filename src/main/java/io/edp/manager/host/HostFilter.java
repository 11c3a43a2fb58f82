package io.edp.manager.host;

import java.util.ArrayList;
import java.util.List;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.persistence.criteria.MapJoin;
import jakarta.persistence.criteria.Predicate;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.springframework.data.jpa.domain.Specification;

/**
 * Which hosts a list shows: {@code name} (exact, so a page of zero or one host: the lookup a client does before
 * creating) and label selectors {@code label=rack=r12} (that value) or {@code label=rack} (any value), all of
 * which must hold.
 */
public record HostFilter(
        @Schema(description = "Exactly this name: a page of zero or one host", example = "esx-01")
        @Size(max = 63) String name,
        @ArraySchema(arraySchema = @Schema(description = "Label selector, repeatable, all must hold: `key=value`, or "
                + "`key` for any value", example = "[\"rack=r12\"]"), maxItems = MAX_SELECTORS)
        @Size(max = MAX_SELECTORS)
        List<@Pattern(regexp = "[^=]{1,63}(=.{0,255})?", message = "must be key=value or key") String> label) {

    private static final int MAX_SELECTORS = 16;

    Specification<Host> specification() {
        return (host, query, cb) -> {
            List<Predicate> all = new ArrayList<>();
            if (name != null) {
                all.add(cb.equal(host.get("name"), name));
            }
            for (String selector : label == null ? List.<String>of() : label) {
                MapJoin<Host, String, String> labels = host.joinMap("labels");
                int equals = selector.indexOf('=');
                if (equals < 0) {
                    all.add(cb.equal(labels.key(), selector));
                } else {
                    all.add(cb.and(cb.equal(labels.key(), selector.substring(0, equals)),
                            cb.equal(labels.value(), selector.substring(equals + 1))));
                }
            }
            return cb.and(all.toArray(Predicate[]::new));
        };
    }
}
