package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

/**
 * Request bodies are read exactly as the contract declares them: no unknown field, no coerced scalar, no control
 * character, no unbounded collection gets through, and each refusal is a 400 problem that names the field.
 */
class StrictContractTest extends ManagerTest {

    private ResultActions postJson(String path, String json) throws Exception {
        return mvc.perform(post(path).with(operator()).contentType(MediaType.APPLICATION_JSON).content(json));
    }

    private static String host(String name, String extra) {
        return """
                {"name": %s, "managementAddress": "192.0.2.11",
                 "numaNodes": [{"id": 0, "cpuCores": [0, 1]}]%s}""".formatted(name, extra);
    }

    private static String pnic(String driver) {
        return """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 4, "rss": true, "driver": %s}"""
                .formatted(driver);
    }

    private static ResultActions expectFieldError(ResultActions result, String field, String message)
            throws Exception {
        return result.andExpect(status().isBadRequest())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.errors[?(@.field == '" + field + "')].message")
                        .value(org.hamcrest.Matchers.hasItem(containsString(message))));
    }

    // unknown fields

    @Test
    void anUnknownFieldIs400NamingItAndCreatesNothing() throws Exception {
        expectFieldError(postJson("/api/v1/hosts", host("\"esx-01\"", ", \"bogusField\": 1")), "bogusField",
                "unknown field");
        assertThat(rows("host")).isZero();
    }

    @Test
    void everyUnknownFieldIsNamedAtOnceNestedOnesWithTheirPath() throws Exception {
        postJson("/api/v1/hosts", """
                {"name": "esx-01", "managementAddress": "192.0.2.11", "nmae": "x", "lables": {},
                 "numaNodes": [{"id": 0, "cpuCores": [0], "cores": 4}]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("nmae", "lables", "numaNodes[0].cores")));
    }

    @Test
    void anUnknownFieldSaysWhichFieldsTheObjectTakes() throws Exception {
        expectFieldError(postJson("/api/v1/hosts", host("\"esx-01\"", ", \"label\": {}")), "label",
                "[labels, managementAddress, name, numaNodes, placement]");
    }

    @Test
    void edpSettingsWithoutTheirWrapperAre400AndLeaveTheHostAsItWas() throws Exception {
        UUID id = createHost("esx-01");
        mvc.perform(put("/api/v1/hosts/" + id + "/edp").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"settings\": {\"mode\": \"EDP_STANDARD\", \"flowCacheSize\": 4096}}"))
                .andExpect(status().isOk());

        expectFieldError(mvc.perform(put("/api/v1/hosts/" + id + "/edp").with(operator())
                .contentType(MediaType.APPLICATION_JSON).content("{\"mode\": \"LEGACY\"}")), "mode", "unknown field");

        mvc.perform(get("/api/v1/hosts/" + id + "/edp").with(viewer()))
                .andExpect(jsonPath("$.settings.mode").value("EDP_STANDARD"))
                .andExpect(jsonPath("$.settings.flowCacheSize").value(4096));
    }

    @Test
    void theMembersOfTheRepresentationAreSkippedSoAGetCanBeSentBackButNoOthers() throws Exception {
        UUID id = createHost("esx-01");
        var current = mvc.perform(get("/api/v1/hosts/" + id).with(viewer())).andReturn().getResponse()
                .getContentAsString();

        expectFieldError(mvc.perform(put("/api/v1/hosts/" + id).with(operator())
                .contentType(MediaType.APPLICATION_JSON).content(current.replaceFirst("\\{", "{\"owner\": \"x\", "))),
                "owner", "unknown field")
                .andExpect(jsonPath("$.errors.length()").value(1));
        mvc.perform(put("/api/v1/hosts/" + id).with(operator()).contentType(MediaType.APPLICATION_JSON)
                .content(current)).andExpect(status().isOk());
    }

    @Test
    void anUnknownFieldInADriverIs400() throws Exception {
        UUID id = createHost("esx-01");
        expectFieldError(postJson("/api/v1/hosts/" + id + "/pnics", pnic("{\"kind\": \"loopback\", \"speed\": 1}")),
                "driver.speed", "unknown field");
        assertThat(rows("physical_nic")).isZero();
    }

    @Test
    void anUnknownFieldInAMergePatchIs400AndChangesNothing() throws Exception {
        UUID id = createHost("esx-01");
        expectFieldError(mvc.perform(patch("/api/v1/hosts/" + id).with(operator()).contentType(MERGE_PATCH)
                .content("{\"name\": \"esx-02\", \"colour\": \"red\"}")), "colour", "unknown field");
        mvc.perform(get("/api/v1/hosts/" + id).with(viewer())).andExpect(jsonPath("$.name").value("esx-01"));
    }

    @Test
    void anUnknownQueryParameterIs400() throws Exception {
        expectFieldError(mvc.perform(get("/api/v1/hosts?nmae=esx-01").with(viewer())), "nmae",
                "unknown query parameter");
    }

    // no scalar coercion

    @Test
    void aNumberWhereAStringIsDeclaredIs400NamingTheField() throws Exception {
        expectFieldError(postJson("/api/v1/hosts", host("42", "")), "name", "String");
        assertThat(rows("host")).isZero();
    }

    @Test
    void aBooleanWhereAStringIsDeclaredIs400() throws Exception {
        expectFieldError(postJson("/api/v1/hosts", host("true", "")), "name", "String");
    }

    @Test
    void aNumberAsALabelValueIs400() throws Exception {
        expectFieldError(postJson("/api/v1/hosts", host("\"esx-01\"", ", \"labels\": {\"rack\": 12}")),
                "labels.rack", "String");
    }

    @Test
    void aStringWhereANumberIsDeclaredIs400() throws Exception {
        UUID id = createHost("esx-01");
        expectFieldError(postJson("/api/v1/hosts/" + id + "/vms", "{\"name\": \"web-01\", \"vcpus\": \"2\", "
                + "\"numaNode\": 0}"), "vcpus", "Integer");
        assertThat(rows("vm")).isZero();
    }

    @Test
    void aFractionWhereAnIntegerIsDeclaredIs400() throws Exception {
        UUID id = createHost("esx-01");
        expectFieldError(postJson("/api/v1/hosts/" + id + "/vms", "{\"name\": \"web-01\", \"vcpus\": 2.5, "
                + "\"numaNode\": 0}"), "vcpus", "Integer");
    }

    @Test
    void aStringOrANumberWhereABooleanIsDeclaredIs400() throws Exception {
        UUID id = createHost("esx-01");
        expectFieldError(postJson("/api/v1/hosts/" + id + "/pnics",
                pnic("{\"kind\": \"loopback\"}").replace("\"rss\": true", "\"rss\": \"true\"")), "rss", "Boolean");
        expectFieldError(postJson("/api/v1/hosts/" + id + "/pnics",
                pnic("{\"kind\": \"loopback\"}").replace("\"rss\": true", "\"rss\": 1")), "rss", "Boolean");
    }

    @Test
    void aStringWhereANumberIsDeclaredInAMergePatchIs400() throws Exception {
        UUID host = createHost("esx-01");
        UUID vm = createVm(host, "web-01");
        expectFieldError(mvc.perform(patch("/api/v1/hosts/" + host + "/vms/" + vm).with(operator())
                .contentType(MERGE_PATCH).content("{\"vcpus\": \"4\"}")), "vcpus", "Integer");
    }

    // control characters

    @Test
    void aNulInANameIs400NamingTheFieldNot409() throws Exception {
        expectFieldError(postJson("/api/v1/hosts", host("\"esx\\u000001\"", "")), "name", "control characters");
        assertThat(rows("host")).isZero();
    }

    @Test
    void aControlCharacterInALabelValueIs400() throws Exception {
        expectFieldError(postJson("/api/v1/hosts", host("\"esx-01\"", ", \"labels\": {\"rack\": \"r\\u001b[31m\"}")),
                "labels.rack", "U+001B");
    }

    @Test
    void aNulInFreeTextIs400() throws Exception {
        expectFieldError(postJson("/api/v1/edp-profiles", "{\"name\": \"gold\", \"description\": \"a\\u0000b\"}"),
                "description", "control characters");
        assertThat(rows("edp_profile")).isZero();
    }

    @Test
    void aNulInAnAccountPasswordIs400() throws Exception {
        expectFieldError(postJson("/api/v1/accounts",
                        "{\"name\": \"alice\", \"role\": \"VIEWER\", \"password\": \"correct-horse\\u0000battery\"}"),
                "password", "control characters");
    }

    @Test
    void aNulInAMergePatchIs400() throws Exception {
        UUID id = createHost("esx-01");
        expectFieldError(mvc.perform(patch("/api/v1/hosts/" + id).with(operator()).contentType(MERGE_PATCH)
                .content("{\"labels\": {\"rack\": \"\\u0000\"}}")), "labels.rack", "control characters");
    }

    @Test
    void aNulInAQueryParameterIs400() throws Exception {
        expectFieldError(mvc.perform(get("/api/v1/hosts?name={name}", "esx\u0000").with(viewer())), "name",
                "control characters");
    }

    // problem details that say how to fix the request

    @Test
    void anUnknownDriverKindNamesTheKindsNotAJavaClass() throws Exception {
        UUID id = createHost("esx-01");
        postJson("/api/v1/hosts/" + id + "/pnics", pnic("{\"kind\": \"usb\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", allOf(containsString("`kind` 'usb' is not known"),
                        containsString("af_packet"), containsString("loopback"), containsString("pcap"),
                        not(containsString("io.edp")), not(containsString("DriverSettings")))))
                .andExpect(jsonPath("$.errors[0].field").value("driver.kind"));
    }

    @Test
    void aMissingDriverKindNamesTheKinds() throws Exception {
        UUID id = createHost("esx-01");
        postJson("/api/v1/hosts/" + id + "/pnics", pnic("{\"interfaceName\": \"eth1\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", allOf(containsString("`kind` is missing"),
                        containsString("af_packet"), not(containsString("DriverSettings")))))
                .andExpect(jsonPath("$.errors[0].field").value("driver.kind"));
    }

    @Test
    void aDriverThatIsNotAnObjectIsAskedForItsKind() throws Exception {
        UUID id = createHost("esx-01");
        expectFieldError(postJson("/api/v1/hosts/" + id + "/pnics", pnic("\"loopback\"")), "driver.kind",
                "`kind` is missing; it must be one of: loopback, af_packet, pcap")
                .andExpect(jsonPath("$.detail", not(containsString("DriverSettings"))));
    }

    @Test
    void aValueOutsideAnEnumNamesTheFieldAndTheValuesNotAJavaType() throws Exception {
        UUID host = createHost("esx-01");
        UUID vm = createVm(host, "web-01");
        expectFieldError(postJson("/api/v1/hosts/" + host + "/vms/" + vm + "/vnics",
                "{\"mac\": \"00:50:56:aa:bb:01\", \"vlan\": 0, \"adapterType\": \"E1000E\", \"rxQueues\": 1}"),
                "adapterType", "'E1000E' is not one of: VMXNET3, E1000")
                .andExpect(jsonPath("$.detail", not(containsString("AdapterType"))));
        expectFieldError(postJson("/api/v1/accounts",
                "{\"name\": \"alice\", \"role\": \"ADMIN\", \"password\": \"correct-horse-battery\"}"),
                "role", "'ADMIN' is not one of: OPERATOR, VIEWER");
    }

    @Test
    void askingForHtmlIs406ProblemDetails() throws Exception {
        mvc.perform(get("/api/v1/hosts").with(viewer()).accept(MediaType.TEXT_HTML))
                .andExpect(status().isNotAcceptable())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail", containsString("application/json")));
    }

    @Test
    void theErrorPathAskedDirectlyIs404ProblemDetailsNot500() throws Exception {
        mvc.perform(get("/error"))
                .andExpect(status().isNotFound())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(404));
    }

    // limits

    @Test
    void moreNumaNodesThanAllowedAre400NamingTheField() throws Exception {
        var nodes = IntStream.range(0, 65).mapToObj(i -> "{\"id\": " + i + ", \"cpuCores\": [" + i + "]}")
                .collect(Collectors.joining(", ", "[", "]"));
        expectFieldError(postJson("/api/v1/hosts", """
                {"name": "esx-01", "managementAddress": "192.0.2.11", "numaNodes": %s}""".formatted(nodes)),
                "numaNodes", "size must be between");
    }

    @Test
    void moreCpuCoresThanAllowedAre400NamingTheField() throws Exception {
        var cores = IntStream.range(0, 4097).mapToObj(i -> "0").collect(Collectors.joining(", ", "[", "]"));
        expectFieldError(postJson("/api/v1/hosts", """
                {"name": "esx-01", "managementAddress": "192.0.2.11", "numaNodes": [{"id": 0, "cpuCores": %s}]}"""
                .formatted(cores)), "numaNodes[0].cpuCores", "size must be between");
    }

    @Test
    void aLabelValueOverItsLengthIs400() throws Exception {
        expectFieldError(postJson("/api/v1/hosts",
                host("\"esx-01\"", ", \"labels\": {\"rack\": \"" + "r".repeat(256) + "\"}")),
                "labels[rack]", "size must be between");
    }

    @Test
    void moreAppliedToEntriesThanAllowedAre400() throws Exception {
        var macs = IntStream.range(0, 1025).mapToObj(i -> "\"vmnic" + i + "\"")
                .collect(Collectors.joining(", ", "[", "]"));
        expectFieldError(postJson("/api/v1/firewall/rules", """
                {"name": "many", "priority": 1, "source": "any", "destination": "any", "protocol": "TCP",
                 "action": "DROP", "appliedTo": %s}""".formatted(macs)), "appliedTo", "size must be between");
        assertThat(rows("firewall_rule")).isZero();
    }

    @Test
    void oversizedRuleFieldsAre400() throws Exception {
        postJson("/api/v1/firewall/rules", """
                {"name": "long", "priority": 1, "source": "any", "destination": "any", "protocol": "%s",
                 "sourcePorts": "%s", "action": "%s"}""".formatted("T".repeat(17), "1".repeat(12), "D".repeat(17)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("action", "protocol", "sourcePorts")));
    }

    @Test
    void moreWorkerEntriesThanNumaNodesCanHaveAre400() throws Exception {
        var workers = IntStream.range(0, 65).mapToObj(i -> "\"" + i + "\": 1")
                .collect(Collectors.joining(", ", "{", "}"));
        expectFieldError(postJson("/api/v1/edp-profiles",
                "{\"name\": \"gold\", \"settings\": {\"workersPerNumaNode\": " + workers + "}}"),
                "settings.workersPerNumaNode", "size must be between");
        assertThat(rows("edp_profile")).isZero();
    }

    @Test
    void anOversizedModeIs400() throws Exception {
        expectFieldError(postJson("/api/v1/edp-profiles",
                "{\"name\": \"gold\", \"settings\": {\"mode\": \"" + "E".repeat(33) + "\"}}"),
                "settings.mode", "size must be between");
    }
}
