package io.edp.manager.audit;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;

class AuditTrailTest extends ManagerTest {

    private static final String EVENTS = "/api/v1/audit-events";

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private AuditRetention retention;

    @Autowired
    private AuditTrail trail;

    @Test
    void everyWriteIsRecordedWithItsUserResourceETagsAndOutcome() throws Exception {
        var id = createHost("esx-01");
        mvc.perform(put("/api/v1/hosts/" + id).with(operator()).header("If-Match", "\"0\"")
                        .contentType(MediaType.APPLICATION_JSON).content(hostJson("esx-02")))
                .andExpect(status().isOk());
        mvc.perform(get("/api/v1/hosts/" + id).with(operator())).andExpect(status().isOk()); // reads: not recorded
        mvc.perform(delete("/api/v1/hosts/" + id).with(operator())).andExpect(status().isNoContent());

        var host = "/api/v1/hosts/" + id;
        mvc.perform(get(EVENTS).with(operator()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.page.totalElements").value(3))
                .andExpect(jsonPath("$.items[*].method", contains("POST", "PUT", "DELETE")))
                .andExpect(jsonPath("$.items[*].user", everyItem(is(OPERATOR))))
                .andExpect(jsonPath("$.items[*].resource", contains(host, host, host)))
                .andExpect(jsonPath("$.items[*].path", contains("/api/v1/hosts", host, host)))
                .andExpect(jsonPath("$.items[*].status", contains(201, 200, 204)))
                .andExpect(jsonPath("$.items[*].outcome", everyItem(is("SUCCEEDED"))))
                .andExpect(jsonPath("$.items[*].dryRun", everyItem(is(false))))
                .andExpect(jsonPath("$.items[0].etagBefore").doesNotExist())
                .andExpect(jsonPath("$.items[0].etagAfter").value("\"0\""))
                .andExpect(jsonPath("$.items[1].etagBefore").value("\"0\""))
                .andExpect(jsonPath("$.items[1].etagAfter").value("\"1\""))
                .andExpect(jsonPath("$.items[2].etagBefore").value("\"1\""))
                .andExpect(jsonPath("$.items[2].etagAfter").doesNotExist())
                .andExpect(jsonPath("$.items[0].occurredAt").isString());
    }

    @Test
    void aChangeIsRolledBackWhenItsEventCannotBeAppended() throws Exception {
        postHostRefusedBy("TRIGGER refuse BEFORE INSERT ON audit_event", "audit_event", "NEW.status < 400");

        assertThat(rows("host")).isZero();
        assertThat(jdbc.queryForList("SELECT method, status FROM audit_event"))
                .containsExactly(Map.of("method", "POST", "status", 500));
    }

    @Test
    void aWriteWhoseCommitFailsLeavesNeitherChangeNorSuccessEvent() throws Exception {
        // a deferred constraint trigger fails at commit: after the handler returned and its event was appended
        postHostRefusedBy("CONSTRAINT TRIGGER refuse AFTER INSERT ON host DEFERRABLE INITIALLY DEFERRED", "host",
                "true");

        assertThat(rows("host")).isZero();
        assertThat(jdbc.queryForList("SELECT status FROM audit_event", Integer.class)).containsExactly(500);
    }

    @Test
    void failedWritesAreRecordedWithTheirStatus() throws Exception {
        var id = createHost("esx-01");
        var host = "/api/v1/hosts/" + id;

        mvc.perform(put(host).with(viewer()).contentType(MediaType.APPLICATION_JSON).content(hostJson("esx-01")))
                .andExpect(status().isForbidden());
        mvc.perform(put(host).with(operator()).header("If-Match", "\"9\"")
                        .contentType(MediaType.APPLICATION_JSON).content(hostJson("esx-02")))
                .andExpect(status().isPreconditionFailed());
        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content(hostJson("esx-01")))
                .andExpect(status().isConflict());
        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON).content("{"))
                .andExpect(status().isBadRequest());
        // no valid account: nobody to name (the login throttle's log has these)
        mvc.perform(delete(host).with(httpBasic(OPERATOR, "wrong"))).andExpect(status().isUnauthorized());
        mvc.perform(delete(host)).andExpect(status().isUnauthorized());

        mvc.perform(get(EVENTS).with(operator()))
                .andExpect(jsonPath("$.items[*].status", contains(201, 403, 412, 409, 400)))
                .andExpect(jsonPath("$.items[*].user", contains(OPERATOR, VIEWER, OPERATOR, OPERATOR, OPERATOR)))
                .andExpect(jsonPath("$.items[*].outcome", contains("SUCCEEDED", "FAILED", "FAILED", "FAILED",
                        "FAILED")))
                .andExpect(jsonPath("$.items[2].etagBefore").value("\"0\"")) // what the failed If-Match met
                .andExpect(jsonPath("$.items[2].etagAfter").doesNotExist());
        assertThat(rows("host")).isOne();
    }

    @Test
    void writesOfControllersWithoutADatabaseAreRecordedToo() throws Exception {
        var flush = "/api/v1/hosts/" + UUID.randomUUID() + "/stats/flow-cache/flush";

        int status = mvc.perform(post(flush).with(operator())).andReturn().getResponse().getStatus();

        assertThat(jdbc.queryForList("SELECT path, status FROM audit_event"))
                .containsExactly(Map.of("path", flush, "status", status));
    }

    @Test
    void eventsAreFilteredByTimeUserAndResourceAndPaged() throws Exception {
        jdbc.update("""
                INSERT INTO audit_event (occurred_at, username, method, path, resource, status) VALUES
                    ('2026-01-01T10:00:00Z', 'alice', 'POST', '/api/v1/hosts', '/api/v1/hosts/h1', 201),
                    ('2026-01-02T10:00:00Z', 'bob', 'PUT', '/api/v1/hosts/h1', '/api/v1/hosts/h1', 200),
                    ('2026-01-03T10:00:00Z', 'alice', 'POST', '/api/v1/hosts/h1/vms', '/api/v1/hosts/h1/vms/v1', 201),
                    ('2026-01-04T10:00:00Z', 'alice', 'POST', '/api/v1/hosts', '/api/v1/hosts/h10', 201),
                    ('2026-01-05T10:00:00Z', 'bob', 'DELETE', '/api/v1/routes/1', '/api/v1/routes/1', 204)""");

        expectPaths(EVENTS + "?user=alice", "/api/v1/hosts", "/api/v1/hosts/h1/vms", "/api/v1/hosts");
        expectPaths(EVENTS + "?resource=/api/v1/hosts/h1", "/api/v1/hosts", "/api/v1/hosts/h1", "/api/v1/hosts/h1/vms");
        expectPaths(EVENTS + "?from=2026-01-02T10:00:00Z&to=2026-01-04T10:00:00Z",
                "/api/v1/hosts/h1", "/api/v1/hosts/h1/vms");
        expectPaths(EVENTS + "?user=bob&resource=/api/v1/routes", "/api/v1/routes/1");
        mvc.perform(get(EVENTS + "?user=alice&size=1&page=1&sort=id,desc").with(operator()))
                .andExpect(jsonPath("$.page.totalElements").value(3))
                .andExpect(jsonPath("$.page.totalPages").value(3))
                .andExpect(jsonPath("$.items[*].path", contains("/api/v1/hosts/h1/vms")));
        mvc.perform(get(EVENTS + "?from=yesterday").with(operator())).andExpect(status().isBadRequest());
        mvc.perform(get(EVENTS).param("user", "bob\u0000").with(operator()))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("user"));
    }

    @Test
    void onlyOperatorsReadTheTrail() throws Exception {
        mvc.perform(get(EVENTS).with(viewer())).andExpect(status().isForbidden());
        mvc.perform(get(EVENTS)).andExpect(status().isUnauthorized());
    }

    @Test
    void eventsOlderThanTheRetentionAreDeleted() throws Exception {
        jdbc.update("""
                INSERT INTO audit_event (occurred_at, username, method, path, resource, status) VALUES
                    (now() - interval '91 days', 'alice', 'POST', '/api/v1/old', '/api/v1/old', 201),
                    (now() - interval '89 days', 'alice', 'POST', '/api/v1/recent', '/api/v1/recent', 201)""");

        retention.deleteExpired(); // the default retention: 90 days

        assertThat(jdbc.queryForList("SELECT path FROM audit_event", String.class)).containsExactly("/api/v1/recent");

        new AuditRetention(trail, new AuditProperties(Duration.ofDays(30))).deleteExpired();

        assertThat(rows("audit_event")).isZero();
    }

    /** POSTs a host (expecting 5xx) while {@code trigger} on {@code table} raises an error when {@code condition}. */
    private void postHostRefusedBy(String trigger, String table, String condition) throws Exception {
        jdbc.execute("""
                CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF %s THEN RAISE EXCEPTION 'refused'; END IF;
                    RETURN NEW;
                END $$""".formatted(condition));
        jdbc.execute("CREATE " + trigger + " FOR EACH ROW EXECUTE FUNCTION refuse()");
        try {
            mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON)
                            .content(hostJson("esx-01")))
                    .andExpect(status().is5xxServerError());
        } finally {
            jdbc.execute("DROP TRIGGER refuse ON " + table);
            jdbc.execute("DROP FUNCTION refuse()");
        }
    }

    private void expectPaths(String query, String... paths) throws Exception {
        mvc.perform(get(query).with(operator()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.page.totalElements").value(paths.length))
                .andExpect(jsonPath("$.items[*].path", contains(paths)));
    }
}
