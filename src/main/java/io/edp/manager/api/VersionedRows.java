package io.edp.manager.api;

import java.util.function.Supplier;

import org.springframework.jdbc.core.simple.JdbcClient;

/** Writes to a table of global resources whose rows carry an {@code id} and a {@code version} (the ETag). */
public final class VersionedRows {

    private VersionedRows() {
    }

    /**
     * Deletes row {@code id} of {@code table} (a constant, never client input) if {@code ifMatch} names its version:
     * the row is locked first, so a concurrent write cannot slip between the check and the delete.
     */
    public static void delete(JdbcClient jdbc, String table, long id, IfMatch ifMatch,
                              Supplier<NotFoundException> notFound) {
        long version = jdbc.sql("SELECT version FROM " + table + " WHERE id = :id FOR UPDATE").param("id", id)
                .query(Long.class).optional().orElseThrow(notFound);
        ifMatch.check(version);
        jdbc.sql("DELETE FROM " + table + " WHERE id = :id").param("id", id).update();
    }
}
