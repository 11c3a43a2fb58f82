package io.edp.manager;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.asyncDispatch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.engines.FaultInjection;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

/**
 * Base of the manager's integration tests: the whole application on real PostgreSQL, driven through MockMvc with
 * the real security filters. All subclasses share one Spring context (same configuration), and every test starts
 * from an empty inventory.
 * <p>
 * The database is the one that {@code SPRING_DATASOURCE_URL} (and friends) name when set, as in CI; otherwise a
 * Testcontainers PostgreSQL when Docker is available; otherwise an embedded PostgreSQL ({@link TestDatabase}).
 */
@SpringBootTest(properties = {
        // pre-encoded ({noop}) so that the many requests of the suite skip BCrypt's deliberate slowness
        "edp.security.operator.user=" + ManagerTest.OPERATOR,
        "edp.security.operator.password={noop}" + ManagerTest.OPERATOR_PASSWORD,
        "edp.security.viewer.user=" + ManagerTest.VIEWER,
        "edp.security.viewer.password={noop}" + ManagerTest.VIEWER_PASSWORD,
        // failed pushes are retried soon, so that tests see the recovery quickly
        "edp.realization.retry-initial=100ms",
        "edp.realization.retry-max=500ms",
        "edp.engines.mbufs=4096",
        // most hosts of the suite run no engine; the memory budget is tested on its own (EngineMemoryBudgetTest)
        "edp.engines.memory-budget=1TB",
        // hosts of the inventory tests name interfaces such as eth1: never open the machine's real ones
        "edp.engines.real-drivers=false",
        // the interfaces the inventory tests name; pcap files live in PCAP_DIR
        "edp.engines.af-packet-interfaces=veth0,eth1"})
@AutoConfigureMockMvc
@Import(FaultInjection.class)
public abstract class ManagerTest {

    protected static final String OPERATOR = "test-operator";
    protected static final String OPERATOR_PASSWORD = "operator-secret";
    protected static final String VIEWER = "test-viewer";
    protected static final String VIEWER_PASSWORD = "viewer-secret";
    protected static final MediaType MERGE_PATCH = MediaType.parseMediaType("application/merge-patch+json");

    /** The pcap directory of the suite's manager, fresh for each run. */
    protected static final Path PCAP_DIR = temporaryDirectory("edp-pcap");
    /** The live captures' directory of the suite's manager. */
    protected static final Path CAPTURE_DIR = temporaryDirectory("edp-capture");

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
        registry.add("edp.engines.pcap-dir", PCAP_DIR::toString);
        registry.add("edp.capture.dir", CAPTURE_DIR::toString);
    }

    private static Path temporaryDirectory(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Autowired
    protected MockMvc mvc;

    @Autowired
    private JdbcTemplate jdbc;

    @BeforeEach
    void emptyInventory() {
        TestDatabase.empty(jdbc);
    }

    protected long rows(String table) {
        return jdbc.queryForObject("SELECT count(*) FROM " + table, Long.class);
    }

    /** The desired generation of each host. */
    protected List<Long> desiredGenerations(List<UUID> hosts) {
        return hosts.stream().map(host -> jdbc.queryForObject(
                "SELECT desired_generation FROM host_realization WHERE host_id = ?", Long.class, host)).toList();
    }

    protected static RequestPostProcessor operator() {
        return httpBasic(OPERATOR, OPERATOR_PASSWORD);
    }

    protected static RequestPostProcessor viewer() {
        return httpBasic(VIEWER, VIEWER_PASSWORD);
    }

    protected static String hostJson(String name) {
        return """
                {"name": "%s", "managementAddress": "192.0.2.11",
                 "numaNodes": [{"id": 0, "cpuCores": [0, 1, 2, 3]}, {"id": 1, "cpuCores": [4, 5, 6, 7]}],
                 "labels": {"rack": "r12"}}
                """.formatted(name);
    }

    /** Creates a host with NUMA nodes 0 and 1 and returns its id. */
    protected UUID createHost(String name) throws Exception {
        return create("/api/v1/hosts", hostJson(name));
    }

    protected UUID createVm(UUID hostId, String name) throws Exception {
        return create("/api/v1/hosts/" + hostId + "/vms", """
                {"name": "%s", "vcpus": 2, "numaNode": 0}""".formatted(name));
    }

    /** POSTs as the operator, expects 201, returns the new resource's id. */
    protected UUID create(String path, String json) throws Exception {
        return UUID.fromString(JsonPath.read(created(path, json), "$.id"));
    }

    /** POSTs as the operator, expects 201, returns the body. */
    protected String created(String path, String json) throws Exception {
        return mvc.perform(post(path).with(operator()).contentType(MediaType.APPLICATION_JSON).content(json))
                .andExpect(status().isCreated())
                .andReturn().getResponse().getContentAsString();
    }

    /**
     * Performs the request, then its async dispatch when the handler answered asynchronously (the realization
     * long poll does, even when it has its answer at once).
     */
    protected ResultActions performCompleted(MockHttpServletRequestBuilder request) throws Exception {
        ResultActions actions = mvc.perform(request);
        MvcResult started = actions.andReturn();
        return started.getRequest().isAsyncStarted() ? mvc.perform(asyncDispatch(started)) : actions;
    }

    protected interface Read<T> {
        T get() throws Exception;
    }

    /** Polls {@code read} every 10 ms until {@code done} holds; fails after 30 s. No fixed sleeps. */
    protected static <T> T await(String what, Read<T> read, Predicate<T> done) throws Exception {
        return LiveApi.await(what, read::get, done);
    }

    /** A host with a loopback physical NIC (vmnic0) and a VM "web" with one vNIC (00:50:56:aa:bb:01); its id. */
    protected String hostWithAVm(String name) throws Exception {
        var hostId = createHost(name);
        create("/api/v1/hosts/" + hostId + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""");
        var vm = createVm(hostId, "web");
        create("/api/v1/hosts/" + hostId + "/vms/" + vm + "/vnics", """
                {"mac": "00:50:56:aa:bb:01", "vlan": 0, "adapterType": "VMXNET3", "rxQueues": 1}""");
        return hostId.toString();
    }

    protected ResultActions putEdp(String hostId, String json) throws Exception {
        return mvc.perform(put("/api/v1/hosts/" + hostId + "/edp").with(operator())
                .contentType(MediaType.APPLICATION_JSON).content(json));
    }

    /** 100 flows of 100 frames from the uplink to the VM of {@link #hostWithAVm}, once the fast path runs. */
    protected void sendTenThousandFramesToTheVm(String hostId) throws Exception {
        await("the fast path to run", () -> responseBody("/api/v1/hosts/" + hostId + "/stats/flow-cache"),
                flowCache -> flowCache.contains("\"mode\":\"EDP_STANDARD\""));
        mvc.perform(post("/api/v1/hosts/" + hostId + "/traffic").with(operator())
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("""
                                {"nic": "vmnic0", "flows": 100, "packets": 10000,
                                 "destinationMac": "00:50:56:aa:bb:01"}"""))
                .andExpect(status().isCreated());
        await("10,000 frames at the VM", () -> JsonPath.<Integer>read(
                responseBody("/api/v1/hosts/" + hostId + "/traffic"), "$.received"), received -> received == 10_000);
    }

    /** The body of a viewer's GET of {@code path}. */
    protected String responseBody(String path) throws Exception {
        return mvc.perform(get(path).with(viewer())).andReturn().getResponse().getContentAsString();
    }
}
