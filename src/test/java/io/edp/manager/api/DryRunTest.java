package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ?dryRun=true} on every write of desired state: it answers what the real write then answers (status,
 * representation, the generations hosts get) and leaves the database as it was, but for one audit event marked as
 * a dry run; bad input gets the same problem as the real write.
 */
class DryRunTest extends ManagerTest {

    private static final JsonMapper JSON = JsonMapper.shared();
    /** Every table of desired state, and the generations: what a dry run must leave as it was. */
    private static final String STATE = """
            SELECT (SELECT coalesce(json_agg(t ORDER BY t.id), '[]') FROM host t)::text
                || (SELECT coalesce(json_agg(t ORDER BY t.host_id, t.name), '[]') FROM host_label t)::text
                || (SELECT coalesce(json_agg(t ORDER BY t.id), '[]') FROM physical_nic t)::text
                || (SELECT coalesce(json_agg(t ORDER BY t.id), '[]') FROM vm t)::text
                || (SELECT coalesce(json_agg(t ORDER BY t.id), '[]') FROM virtual_nic t)::text
                || (SELECT coalesce(json_agg(t ORDER BY t.host_id), '[]') FROM host_edp t)::text
                || (SELECT coalesce(json_agg(t ORDER BY t.name), '[]') FROM edp_profile t)::text
                || (SELECT coalesce(json_agg(t ORDER BY t.id), '[]') FROM firewall_rule t)::text
                || (SELECT coalesce(json_agg(t ORDER BY t.id), '[]') FROM route t)::text
                || (SELECT coalesce(json_agg(t ORDER BY t.id), '[]') FROM ipfix_collector t)::text
                || (SELECT coalesce(json_agg(t ORDER BY t.id), '[]') FROM syslog_server t)::text
                || (SELECT coalesce(json_agg(t ORDER BY t.name), '[]') FROM account t)::text
                || (SELECT coalesce(json_agg(json_build_array(host_id, desired_generation) ORDER BY host_id), '[]')
                      FROM host_realization)::text""";

    @Autowired
    private JdbcTemplate db;

    /** The ids of the fixture's resources, by name. */
    private final Map<String, String> ids = new HashMap<>();

    /** One write: a name, and the request given the fixture's ids. */
    record Write(String name, Function<Map<String, String>, MockHttpServletRequestBuilder> request) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> writes() {
        return Stream.of(
                write("create a host", i -> json(post("/api/v1/hosts"), hostJson("esx-new"))),
                write("replace a host", i -> json(put("/api/v1/hosts/" + i.get("host")), hostJson("esx-renamed"))),
                write("patch a host", i -> patched(patch("/api/v1/hosts/" + i.get("host")),
                        "{\"labels\": {\"rack\": \"r13\"}}")),
                write("delete a host", i -> delete("/api/v1/hosts/" + i.get("host"))),
                write("create a pNIC", i -> json(post("/api/v1/hosts/" + i.get("host") + "/pnics"),
                        PNIC.formatted("vmnic7"))),
                write("replace a pNIC", i -> json(put(pnic(i)),
                        PNIC.formatted("vmnic0").replace("25000", "10000"))),
                write("patch a pNIC", i -> patched(patch(pnic(i)), "{\"rxQueues\": 2}")),
                write("delete a pNIC", i -> delete(pnic(i))),
                write("create a VM", i -> json(post("/api/v1/hosts/" + i.get("host") + "/vms"),
                        VM.formatted("db"))),
                write("replace a VM", i -> json(put(vm(i)),
                        VM.formatted("web").replace("\"vcpus\": 2", "\"vcpus\": 4"))),
                write("patch a VM", i -> patched(patch(vm(i)), "{\"numaNode\": 1}")),
                write("delete a VM", i -> delete(vm(i))),
                write("create a vNIC", i -> json(post(vm(i) + "/vnics"), VNIC.formatted("02"))),
                write("replace a vNIC", i -> json(put(vnic(i)),
                        VNIC.formatted("01").replace("\"vlan\": 0", "\"vlan\": 5"))),
                write("patch a vNIC", i -> patched(patch(vnic(i)), "{\"vlan\": 7}")),
                write("delete a vNIC", i -> delete(vnic(i))),
                write("replace a host's EDP settings", i -> json(put("/api/v1/hosts/" + i.get("host") + "/edp"),
                        "{\"profile\": \"gold\", \"settings\": {\"mode\": \"EDP_DEDICATED\"}}")),
                write("create a profile", i -> json(post("/api/v1/edp-profiles"),
                        PROFILE.formatted("silver", "LEGACY"))),
                write("replace a profile", i -> json(put("/api/v1/edp-profiles/gold"),
                        PROFILE.formatted("gold", "EDP_DEDICATED"))),
                write("delete a profile", i -> delete("/api/v1/edp-profiles/silver-unused")),
                write("create a firewall rule", i -> json(post("/api/v1/firewall/rules"),
                        RULE.formatted("new", "DROP"))),
                write("replace a firewall rule", i -> json(put("/api/v1/firewall/rules/" + i.get("rule")),
                        RULE.formatted("drop-one", "REJECT"))),
                write("delete a firewall rule", i -> delete("/api/v1/firewall/rules/" + i.get("rule"))),
                write("create a route", i -> json(post("/api/v1/routing/routes"), ROUTE.formatted("10.9.0.0/16", 20))),
                write("replace a route", i -> json(put("/api/v1/routing/routes/" + i.get("route")),
                        ROUTE.formatted("10.128.0.0/16", 30))),
                write("delete a route", i -> delete("/api/v1/routing/routes/" + i.get("route"))),
                write("create an IPFIX collector", i -> json(post("/api/v1/ipfix-collectors"),
                        COLLECTOR.formatted(4740))),
                write("replace an IPFIX collector", i -> json(put("/api/v1/ipfix-collectors/" + i.get("collector")),
                        COLLECTOR.formatted(4741))),
                write("delete an IPFIX collector", i -> delete("/api/v1/ipfix-collectors/" + i.get("collector"))),
                write("create a syslog server", i -> json(post("/api/v1/syslog-servers"), SYSLOG.formatted(1514))),
                write("replace a syslog server", i -> json(put("/api/v1/syslog-servers/" + i.get("syslog")),
                        SYSLOG.formatted(1515))),
                write("delete a syslog server", i -> delete("/api/v1/syslog-servers/" + i.get("syslog"))),
                write("create an account", i -> json(post("/api/v1/accounts"),
                        "{\"name\": \"alice\", \"role\": \"VIEWER\", \"password\": \"a-long-secret-phrase\"}")),
                write("patch an account", i -> patched(patch("/api/v1/accounts/bob"), "{\"enabled\": false}")));
    }

    private static final String PNIC = """
            {"name": "%s", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
             "driver": {"kind": "loopback"}}""";
    private static final String VM = "{\"name\": \"%s\", \"vcpus\": 2, \"numaNode\": 0}";
    private static final String VNIC = "{\"mac\": \"00:50:56:aa:bb:%s\", \"vlan\": 0, \"adapterType\": \"VMXNET3\","
            + " \"rxQueues\": 1}";
    private static final String PROFILE = "{\"name\": \"%s\", \"settings\": {\"mode\": \"%s\"}}";
    private static final String RULE = """
            {"name": "%s", "priority": 10, "source": "10.0.0.7/32", "destination": "any", "protocol": "ANY",
             "action": "%s"}""";
    private static final String ROUTE = "{\"prefix\": \"%s\", \"nextHopMac\": \"02:00:00:00:00:fe\","
            + " \"output\": \"vmnic0\", \"vlan\": %d}";
    private static final String COLLECTOR = "{\"address\": \"192.0.2.10\", \"port\": %d}";
    private static final String SYSLOG = "{\"host\": \"127.0.0.1\", \"port\": %d, \"transport\": \"UDP\"}";

    private static Arguments write(String name, Function<Map<String, String>, MockHttpServletRequestBuilder> request) {
        return Arguments.of(new Write(name, request));
    }

    private static MockHttpServletRequestBuilder json(MockHttpServletRequestBuilder request, String body) {
        return request.contentType(MediaType.APPLICATION_JSON).content(body);
    }

    private static MockHttpServletRequestBuilder patched(MockHttpServletRequestBuilder request, String body) {
        return request.contentType(MERGE_PATCH).content(body);
    }

    private static String pnic(Map<String, String> ids) {
        return "/api/v1/hosts/" + ids.get("host") + "/pnics/" + ids.get("pnic");
    }

    private static String vm(Map<String, String> ids) {
        return "/api/v1/hosts/" + ids.get("host") + "/vms/" + ids.get("vm");
    }

    private static String vnic(Map<String, String> ids) {
        return vm(ids) + "/vnics/" + ids.get("vnic");
    }

    /** Two hosts, the first with a pNIC, a VM and its vNIC, following profile gold; one of each global resource. */
    private void fixture() throws Exception {
        db.update("DELETE FROM ipfix_collector"); // not emptied between tests
        created("/api/v1/edp-profiles", PROFILE.formatted("gold", "EDP_STANDARD"));
        created("/api/v1/edp-profiles", PROFILE.formatted("silver-unused", "LEGACY"));
        var host = createHost("esx-01");
        ids.put("host", host.toString());
        ids.put("other", createHost("esx-02").toString());
        ids.put("pnic", create("/api/v1/hosts/" + host + "/pnics", PNIC.formatted("vmnic0")).toString());
        ids.put("vm", createVm(host, "web").toString());
        ids.put("vnic", create(vm(ids) + "/vnics", VNIC.formatted("01")).toString());
        mvc.perform(json(put("/api/v1/hosts/" + host + "/edp"), "{\"profile\": \"gold\"}").with(operator()))
                .andExpect(status().isOk());
        ids.put("rule", id(created("/api/v1/firewall/rules", RULE.formatted("drop-one", "DROP"))));
        ids.put("route", id(created("/api/v1/routing/routes", ROUTE.formatted("10.128.0.0/16", 20))));
        ids.put("collector", id(created("/api/v1/ipfix-collectors", COLLECTOR.formatted(4739))));
        ids.put("syslog", id(created("/api/v1/syslog-servers", SYSLOG.formatted(514))));
        created("/api/v1/accounts",
                "{\"name\": \"bob\", \"role\": \"VIEWER\", \"password\": \"a-long-secret-phrase\"}");
    }

    private static String id(String body) {
        return JSON.readTree(body).get("id").asString();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writes")
    void aDryRunChangesNothingAndAnswersWhatTheWriteThenDoes(Write write) throws Exception {
        fixture();
        var state = db.queryForObject(STATE, String.class);
        var events = rows("audit_event");

        var dry = mvc.perform(write.request().apply(ids).param("dryRun", "true").with(operator()))
                .andExpect(header().string(DryRun.HEADER, "true"))
                .andReturn().getResponse();

        assertThat(db.queryForObject(STATE, String.class)).as("the database after the dry run").isEqualTo(state);
        assertThat(rows("audit_event")).isEqualTo(events + 1);
        assertThat(db.queryForObject("SELECT dry_run FROM audit_event ORDER BY id DESC LIMIT 1", Boolean.class))
                .isTrue();

        var real = mvc.perform(write.request().apply(ids).with(operator())).andReturn().getResponse();
        assertThat(dry.getStatus()).isEqualTo(real.getStatus() == 204 ? 200 : real.getStatus());
        assertThat(dry.getHeader("ETag")).isEqualTo(real.getHeader("ETag"));
        assertThat(dry.getHeader("EDP-Generation")).isEqualTo(real.getHeader("EDP-Generation"));
        var dryBody = (ObjectNode) JSON.readTree(dry.getContentAsString());
        var hosts = dryBody.remove("bumpedHosts");
        var changes = dryBody.remove("changes");
        assertThat(changes.isArray()).isTrue();
        if (!write.name().startsWith("delete")) {
            var realBody = (ObjectNode) JSON.readTree(real.getContentAsString());
            var realHosts = realBody.remove("bumpedHosts");
            if (realHosts != null && !write.name().equals("create a host")) {
                assertThat(hosts).as("the bumped hosts").isEqualTo(realHosts);
            }
            if (write.name().startsWith("create")) {
                Stream.of("id", "createdAt").forEach(generated -> {
                    dryBody.remove(generated);
                    realBody.remove(generated);
                });
            }
            assertThat(dryBody).as("the representation").isEqualTo(realBody);
            assertThat(changes).as("the changed fields").isNotEmpty();
        }
        // the generations it said hosts would get are those the real write gave them
        for (var bumped : hosts) {
            var host = UUID.fromString(bumped.get("hostId").asString());
            if (!write.name().equals("create a host")) {
                assertThat(desiredGenerations(List.of(host))).containsExactly(bumped.get("generation").asLong());
            }
        }
    }

    @Test
    void aDryRunShowsTheFieldsThatWouldChange() throws Exception {
        fixture();
        mvc.perform(json(put("/api/v1/firewall/rules/" + ids.get("rule")), RULE.formatted("drop-one", "REJECT"))
                        .param("dryRun", "true").with(operator()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.action").value("REJECT"))
                .andExpect(jsonPath("$.changes[?(@.field == 'action')].before").value("DROP"))
                .andExpect(jsonPath("$.changes[?(@.field == 'action')].after").value("REJECT"))
                .andExpect(jsonPath("$.changes[?(@.field == 'name')]").isEmpty())
                .andExpect(jsonPath("$.bumpedHosts.length()").value(2));
        mvc.perform(json(put("/api/v1/hosts/" + ids.get("host") + "/edp"),
                        "{\"profile\": \"gold\", \"settings\": {\"mode\": \"EDP_DEDICATED\"}}")
                        .param("dryRun", "true").with(operator()))
                .andExpect(jsonPath("$.changes[?(@.field == 'settings.mode')].after").value("EDP_DEDICATED"))
                .andExpect(jsonPath("$.changes[?(@.field == 'profile')]").isEmpty());
    }

    static Stream<Arguments> badWrites() {
        return Stream.of(
                write("invalid fields", i -> json(post("/api/v1/hosts"), "{\"name\": \"\", \"numaNodes\": []}")),
                write("a duplicate name", i -> json(post("/api/v1/hosts"), hostJson("esx-01"))),
                write("a stale If-Match", i -> json(put("/api/v1/firewall/rules/" + i.get("rule")),
                        RULE.formatted("drop-one", "REJECT")).header("If-Match", "\"7\"")),
                write("an unknown resource", i -> delete("/api/v1/routing/routes/999999")),
                write("a NUMA node the host lacks", i -> patched(patch(vm(i)), "{\"numaNode\": 5}")),
                write("a profile in use", i -> delete("/api/v1/edp-profiles/gold")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badWrites")
    void aBadDryRunGetsTheRealWritesProblem(Write write) throws Exception {
        fixture();
        var state = db.queryForObject(STATE, String.class);
        MockHttpServletResponse dry = mvc.perform(write.request().apply(ids).param("dryRun", "true").with(operator()))
                .andReturn().getResponse();
        MockHttpServletResponse real = mvc.perform(write.request().apply(ids).with(operator()))
                .andReturn().getResponse();
        assertThat(dry.getStatus()).isBetween(400, 499).isEqualTo(real.getStatus());
        JsonNode dryProblem = JSON.readTree(dry.getContentAsString());
        assertThat(dryProblem).isEqualTo(JSON.readTree(real.getContentAsString()));
        assertThat(db.queryForObject(STATE, String.class)).isEqualTo(state);
    }

    @Test
    void aViewersDryRunIsForbiddenLikeTheWrite() throws Exception {
        mvc.perform(json(post("/api/v1/hosts"), hostJson("esx-09")).param("dryRun", "true").with(viewer()))
                .andExpect(status().isForbidden());
    }

    @Test
    void dryRunTakesOnlyTrueOrFalse() throws Exception {
        mvc.perform(json(post("/api/v1/hosts"), hostJson("esx-09")).param("dryRun", "yes").with(operator()))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("dryRun"));
        assertThat(rows("host")).isZero();
    }

    @Test
    void aGlobalChangeNamesTheHostsItBumpedAndTheirGenerations() throws Exception {
        fixture();
        var following = UUID.fromString(ids.get("host"));
        var other = UUID.fromString(ids.get("other"));
        var generations = desiredGenerations(List.of(following, other));

        // the profile only one host follows bumps that one
        mvc.perform(json(put("/api/v1/edp-profiles/gold"), PROFILE.formatted("gold", "EDP_DEDICATED")).with(operator()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.bumpedHosts.length()").value(1))
                .andExpect(jsonPath("$.bumpedHosts[0].hostId").value(following.toString()))
                .andExpect(jsonPath("$.bumpedHosts[0].generation").value(generations.get(0) + 1));
        assertThat(desiredGenerations(List.of(following, other)))
                .containsExactly(generations.get(0) + 1, generations.get(1));

        // a rule is every host's: both, each to its own next generation; its delete answers the same way
        mvc.perform(delete("/api/v1/firewall/rules/" + ids.get("rule")).with(operator()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.bumpedHosts.length()").value(2))
                .andExpect(jsonPath("$.bumpedHosts[?(@.hostId == '" + following + "')].generation")
                        .value((int) (generations.get(0) + 2)))
                .andExpect(jsonPath("$.bumpedHosts[?(@.hostId == '" + other + "')].generation")
                        .value((int) (generations.get(1) + 1)));
    }
}
