package io.edp.manager.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.edp.manager.ManagerTest;
import io.edp.manager.TestDatabase;
import io.edp.manager.api.PageResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.ResultActions;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * A page of hosts costs a fixed number of SQL statements, however many hosts it shows: the host list's change counter,
 * the page (its NUMA nodes and labels aggregated into it), its hosts' agent statuses (the agent feature's table, one
 * statement for the page) and the total, never one per host; a page asked for again while the counter has not moved,
 * only the counter, and the statuses of those of its hosts that show one (AGENT, or with a token). A change committed
 * by anyone (here plain SQL, as another replica would) shows in the next read. Counted as the PostgreSQL driver's
 * executions on the request's thread (MockMvc serves it on the test's), from the driver's own protocol log, switched on
 * for the request only: whatever issues them (Hibernate or JDBC), transaction control included.
 */
class HostListQueriesTest extends ManagerTest {

    private static final int HOSTS = 100;

    /** Logs each statement the driver sends (FINEST); its Execute message is sent once per execution. */
    private static final Logger DRIVER = Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl");

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    JsonMapper json;

    @BeforeEach
    void inventory() {
        for (int i = 0; i < HOSTS; i++) {
            var id = UUID.randomUUID();
            jdbc.update("INSERT INTO host (id, name, management_address, version) VALUES (?, ?, ?, 0)", id,
                    "esx-%03d".formatted(i), "192.0.2." + i);
            jdbc.update("INSERT INTO host_numa_node (host_id, node_id, cpu_cores) VALUES (?, 0, '{0,1}'), "
                    + "(?, 1, '{2,3}')", id, id);
            jdbc.update("INSERT INTO host_label (host_id, name, value) VALUES (?, 'rack', ?), (?, 'role', 'edge')",
                    id, "r" + i % 10, id);
        }
    }

    @AfterEach
    void noHostsLeft() {
        TestDatabase.empty(jdbc); // contexts of other test classes share the database and its engines' budget
    }

    @Test
    void aFullPageOfAHundredHostsTakesFourStatementsThenOne() throws Exception {
        assertThat(statements("/api/v1/hosts?size=100")).isEqualTo(4);
        assertThat(statements("/api/v1/hosts?size=100")).isEqualTo(1);
    }

    @Test
    void aKeptPageReadsTheAgentStatusesOfItsHostsThatShowOneAndSeesATokenIssued() throws Exception {
        String page = "/api/v1/hosts?size=100";
        jdbc.update("UPDATE host SET placement = 'AGENT' WHERE name = 'esx-005'");
        assertThat(statements(page)).isEqualTo(4);
        assertThat(statements(page)).isEqualTo(2);
        read(page).andExpect(jsonPath("$.items[5].agent.connected").value(false))
                .andExpect(jsonPath("$.items[6].agent").doesNotExist());
        // as another replica issues a token: the counter moves, and the next read shows it
        jdbc.update("INSERT INTO host_agent (host_id, token_sha256, token_issued_at) "
                + "SELECT id, sha256(name::bytea), now() FROM host WHERE name = 'esx-006'");
        read(page).andExpect(jsonPath("$.items[6].agent.tokenIssued").value(true));
        assertThat(statements(page)).isEqualTo(2);
        // an agent's call does not move it; a token withdrawn does
        long counter = jdbc.queryForObject("SELECT version FROM host_list_version", Long.class);
        jdbc.update("UPDATE host_agent SET last_seen_at = now(), agent_version = '9.9'");
        assertThat(jdbc.queryForObject("SELECT version FROM host_list_version", Long.class)).isEqualTo(counter);
        read(page).andExpect(jsonPath("$.items[6].agent.version").value("9.9"));
        jdbc.update("DELETE FROM host_agent");
        read(page).andExpect(jsonPath("$.items[6].agent").doesNotExist());
    }

    @Test
    void aPageAfterTheFirstAndAFilteredPageTakeNoMore() throws Exception {
        assertThat(statements("/api/v1/hosts?size=30&page=2&sort=managementAddress,desc")).isEqualTo(4);
        // a first page that is not full needs no count
        assertThat(statements("/api/v1/hosts?size=100&label=rack=r3&label=role")).isEqualTo(3);
        // nor does a later page that is not full
        assertThat(statements("/api/v1/hosts?size=30&page=3")).isEqualTo(3);
        assertThat(statements("/api/v1/hosts?size=100&label=rack=r3&label=role")).isEqualTo(1);
    }

    @Test
    void aKeptPageIsReadAgainAfterEveryCommittedChange() throws Exception {
        String page = "/api/v1/hosts?size=100&label=role";
        read(page).andExpect(jsonPath("$.items[3].labels.rack").value("r3"));
        jdbc.update("UPDATE host_label SET value = 'r33' WHERE name = 'rack' AND value = 'r3'");
        read(page).andExpect(jsonPath("$.items[3].labels.rack").value("r33"));
        jdbc.update("UPDATE host SET name = 'a-first' WHERE name = 'esx-050'");
        read(page).andExpect(jsonPath("$.items[0].name").value("a-first"));
        jdbc.update("DELETE FROM host_numa_node WHERE node_id = 1");
        read(page).andExpect(jsonPath("$.items[5].numaNodes.length()").value(1));
        jdbc.update("DELETE FROM host_label WHERE name = 'role' AND value = 'edge' AND host_id = "
                + "(SELECT id FROM host WHERE name = 'esx-000')");
        read(page).andExpect(jsonPath("$.items.length()").value(HOSTS - 1))
                .andExpect(jsonPath("$.page.totalElements").value(HOSTS - 1));
        jdbc.update("DELETE FROM host WHERE name LIKE 'esx-09%'");
        read(page).andExpect(jsonPath("$.items.length()").value(HOSTS - 11));
        jdbc.execute("TRUNCATE host_realization, host CASCADE");
        read(page).andExpect(jsonPath("$.items.length()").value(0));
    }

    @Test
    void aTransactionWritingManyHostsBumpsTheCounterOnce() {
        long before = jdbc.queryForObject("SELECT version FROM host_list_version", Long.class);
        jdbc.update("UPDATE host_label SET value = value || '-x'"); // 200 rows, one transaction
        assertThat(jdbc.queryForObject("SELECT version FROM host_list_version", Long.class)).isEqualTo(before + 1);
    }

    @Test
    void aKeptPageIsWrittenAsTheMapperWritesItsHostsAnAgentsStatusIncluded() throws Exception {
        jdbc.update("UPDATE host SET placement = 'AGENT' WHERE name = 'esx-005'");
        String first = read("/api/v1/hosts?size=100").andReturn().getResponse().getContentAsString();
        String kept = read("/api/v1/hosts?size=100").andReturn().getResponse().getContentAsString();

        assertThat(kept).isEqualTo(first).contains("\"agent\":{\"connected\":false,");
        // the same values, written field by field by the application's mapper
        var page = json.readValue(kept, new TypeReference<PageResponse<HostResponse>>() {
        });
        assertThat(page.items()).hasSize(HOSTS).isNotInstanceOf(HostItems.class);
        assertThat(json.writeValueAsString(page)).isEqualTo(kept);
    }

    private ResultActions read(String path) throws Exception {
        return mvc.perform(get(path).with(viewer())).andExpect(status().isOk());
    }

    @Test
    void thePageShowsEveryHostsNodesAndLabels() throws Exception {
        mvc.perform(get("/api/v1/hosts?size=100").with(viewer()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items.length()").value(HOSTS))
                .andExpect(jsonPath("$.page.totalElements").value(HOSTS))
                .andExpect(jsonPath("$.items[7].name").value("esx-007"))
                .andExpect(jsonPath("$.items[7].numaNodes[1].id").value(1))
                .andExpect(jsonPath("$.items[7].numaNodes[1].cpuCores[1]").value(3))
                .andExpect(jsonPath("$.items[7].labels.rack").value("r7"))
                .andExpect(jsonPath("$.items[99].labels.role").value("edge"));
    }

    @Test
    void aHostWithoutLabelsShowsNone() throws Exception {
        jdbc.update("INSERT INTO host (id, name, management_address, version) VALUES (?, 'zz-bare', '192.0.2.200', 3)",
                UUID.randomUUID());
        mvc.perform(get("/api/v1/hosts?name=zz-bare").with(viewer()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items[0].labels").isMap())
                .andExpect(jsonPath("$.items[0].labels").isEmpty())
                .andExpect(jsonPath("$.items[0].numaNodes").isArray())
                .andExpect(jsonPath("$.items[0].numaNodes").isEmpty())
                .andExpect(jsonPath("$.items[0].version").value(3))
                .andExpect(jsonPath("$.page.totalElements").value(1));
    }

    /** The SQL statements the driver executed on this thread while serving {@code GET path}. */
    private long statements(String path) throws Exception {
        long thread = Thread.currentThread().threadId();
        var executions = new AtomicLong();
        var counter = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLongThreadID() == thread && record.getMessage().startsWith(" FE=> Execute(")) {
                    executions.incrementAndGet();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        counter.setLevel(Level.FINEST);
        var level = DRIVER.getLevel();
        DRIVER.addHandler(counter);
        DRIVER.setLevel(Level.FINEST);
        try {
            mvc.perform(get(path).with(viewer())).andExpect(status().isOk());
        } finally {
            DRIVER.setLevel(level);
            DRIVER.removeHandler(counter);
        }
        return executions.get();
    }
}
