package io.edp.manager.api;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.stream.Collectors;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.support.PageableExecutionUtils;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Lists of the features that read with SQL rather than JPA, paged, sorted and filtered the API's way. */
public final class SqlPages {

    private SqlPages() {
    }

    /**
     * A list's WHERE clause (empty, or starting with a space) and its named parameters: the same for the page and
     * for its total.
     */
    public record Filter(String where, Map<String, ?> params) {

        public static final Filter NONE = new Filter("", Map.of());

        /** {@code column = :parameter}, or no condition when {@code value} is null (the parameter not given). */
        public static Filter equal(String column, String parameter, Object value) {
            return value == null ? NONE : new Filter(" WHERE " + column + " = :" + parameter, Map.of(parameter, value));
        }

        /** Both filters' conditions. */
        public Filter and(Filter other) {
            if (other.where.isEmpty() || where.isEmpty()) {
                return where.isEmpty() ? other : this;
            }
            var both = new HashMap<String, Object>(params);
            both.putAll(other.params);
            return new Filter(where + " AND " + other.where.substring(" WHERE ".length()), both);
        }
    }

    /**
     * One page of {@code select} (whose WHERE is {@code filter}'s) in the page's sort order — its API properties
     * named in SQL by {@code columns}, the id tie-break included, so that pages never overlap — with the number of
     * rows of {@code from} (a table, with the alias the filter uses) that the filter keeps as the total. The total
     * is counted only when the page cannot tell it (a first page that is not full holds every row), as Spring
     * Data's lists do.
     */
    public static <T> Page<T> page(JdbcClient jdbc, String select, Map<String, String> columns, String from,
                                   Filter filter, RowMapper<T> rows, Pageable pageable) {
        return page(jdbc, select, columns, from, filter, rows, pageable, (page, orderBy) -> page);
    }

    /**
     * As {@link #page(JdbcClient, String, Map, String, Filter, RowMapper, Pageable)}, but the statement that runs
     * is what {@code complete} makes of the page's (ordered and limited) query and its ORDER BY clause: a query
     * that joins more to the page's rows only, e.g. as a CTE, and orders the result again.
     */
    public static <T> Page<T> page(JdbcClient jdbc, String select, Map<String, String> columns, String from,
                                   Filter filter, RowMapper<T> rows, Pageable pageable,
                                   BinaryOperator<String> complete) {
        String orderBy = orderBy(pageable.getSort(), columns);
        var items = jdbc.sql(complete.apply(select + orderBy + " LIMIT :limit OFFSET :offset", orderBy))
                .params(filter.params())
                .param("limit", pageable.getPageSize()).param("offset", pageable.getOffset())
                .query(rows).list();
        return PageableExecutionUtils.getPage(items, pageable, () -> jdbc.sql("SELECT count(*) FROM " + from
                + filter.where()).params(filter.params()).query(Long.class).single());
    }

    private static String orderBy(Sort sort, Map<String, String> columns) {
        return sort.stream().map(order -> {
            String column = columns.get(order.getProperty());
            if (column == null) {
                throw new IllegalArgumentException("no column for sort property " + order.getProperty());
            }
            return column + (order.isDescending() ? " DESC" : " ASC");
        }).distinct().collect(Collectors.joining(", ", " ORDER BY ", ""));
    }
}
