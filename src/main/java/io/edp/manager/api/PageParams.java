package io.edp.manager.api;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;

/**
 * The query parameters of every list: {@code page} (from 0, while page × size stays below 2^31 - 100),
 * {@code size} (1 to 100) and {@code sort}
 * ({@code property} or {@code property,desc}, repeatable). The order is always made total with the id, so that
 * pages never overlap or skip items.
 */
public record PageParams(
        @Schema(description = "Page number, from 0; a page may start at item 2,147,483,547 at most (400 beyond)",
                defaultValue = "0", minimum = "0")
        @Min(0) Integer page,
        @Schema(description = "Page size", defaultValue = "20", minimum = "1", maximum = "100")
        @Min(1) @Max(MAX_SIZE) Integer size,
        @ArraySchema(arraySchema = @Schema(description = "Sort order: `property` or `property,asc|desc`, repeatable; "
                + "the allowed properties are listed in each operation's description", example = "[\"name,desc\"]"))
        List<String> sort) {

    public static final int MAX_SIZE = 100;
    /** The first item a page may start at: offsets stay within an int wherever a list is held in memory. */
    static final int MAX_OFFSET = Integer.MAX_VALUE - MAX_SIZE;
    static final int DEFAULT_SIZE = 20;

    /**
     * @param sortable the properties {@code sort} may name (API and entity use the same names)
     * @param byDefault the API property to sort by when the client gives none
     */
    public Pageable toPageable(Set<String> sortable, String byDefault) {
        var orders = new ArrayList<Sort.Order>();
        // "?sort=name,desc" may arrive as ["name", "desc"] or ["name,desc"]: a direction applies to the property before
        var tokens = sort == null || sort.isEmpty() ? List.of(byDefault)
                : sort.stream().flatMap(entry -> Arrays.stream(entry.split(","))).toList();
        for (var token : tokens) {
            var property = token.strip();
            var direction = direction(property);
            if (direction != null && !orders.isEmpty()) {
                orders.add(orders.removeLast().with(direction));
                continue;
            }
            if (!sortable.contains(property)) {
                throw new InvalidRequestException("sort", "cannot sort by '" + token + "'; use one of "
                        + sortable.stream().sorted().toList() + ", optionally followed by ,asc or ,desc");
            }
            orders.add(Sort.Order.asc(property));
        }
        orders.add(Sort.Order.asc("id")); // tie-break: a stable order across pages
        int number = page == null ? 0 : page;
        int pageSize = size == null ? DEFAULT_SIZE : size;
        if ((long) number * pageSize > MAX_OFFSET) {
            throw new InvalidRequestException("page", "page " + number + " of size " + pageSize + " starts past item "
                    + MAX_OFFSET + ", the last any list can reach; use a page number up to " + MAX_OFFSET / pageSize);
        }
        return PageRequest.of(number, pageSize, Sort.by(orders));
    }

    /**
     * The direction {@code token} names, as {@link Sort.Direction#fromOptionalString} reads it, or null; without its
     * exception for every property name (a stack trace filled on each sorted request).
     */
    private static Sort.Direction direction(String token) {
        return switch (token.toUpperCase(Locale.US)) {
            case "ASC" -> Sort.Direction.ASC;
            case "DESC" -> Sort.Direction.DESC;
            default -> null;
        };
    }
}
