package io.edp.manager.host;

import java.util.List;
import java.util.Map;

import io.edp.manager.api.SqlPages;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

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

    /**
     * The filter as SQL over {@code host h}: a label selector is a subquery of its own, so a host matches once
     * however many selectors it meets.
     */
    SqlPages.Filter sqlFilter() {
        var filter = SqlPages.Filter.equal("h.name", "name", name);
        var selectors = label == null ? List.<String>of() : label;
        for (int i = 0; i < selectors.size(); i++) {
            String selector = selectors.get(i);
            int equals = selector.indexOf('=');
            String key = "labelKey" + i;
            String value = "labelValue" + i;
            String exists = " WHERE EXISTS (SELECT 1 FROM host_label l WHERE l.host_id = h.id AND l.name = :" + key;
            filter = filter.and(equals < 0 ? new SqlPages.Filter(exists + ")", Map.of(key, selector))
                    : new SqlPages.Filter(exists + " AND l.value = :" + value + ")",
                            Map.of(key, selector.substring(0, equals), value, selector.substring(equals + 1))));
        }
        return filter;
    }
}
