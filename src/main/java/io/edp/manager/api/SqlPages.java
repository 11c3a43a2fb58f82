package io.edp.manager.api;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Pageable;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Lists of the features that read with SQL rather than JPA, paged the API's way. */
public final class SqlPages {

    private SqlPages() {
    }

    /**
     * One page of {@code orderedSelect} (a SELECT with a total ORDER BY, so that pages never overlap), with the
     * number of rows in {@code table} as the total.
     */
    public static <T> Page<T> page(JdbcClient jdbc, String orderedSelect, String table, RowMapper<T> rows,
                                   Pageable pageable) {
        var items = jdbc.sql(orderedSelect + " LIMIT :limit OFFSET :offset")
                .param("limit", pageable.getPageSize()).param("offset", pageable.getOffset())
                .query(rows).list();
        long total = jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single();
        return new PageImpl<>(items, pageable, total);
    }
}
