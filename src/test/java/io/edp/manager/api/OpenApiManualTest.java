package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The served contract is a user's only manual: every operation, parameter and property is described, the string
 * fields whose values are a closed set are declared as enums, the declared defaults are the ones the manager applies,
 * every example satisfies its own schema, and the request examples, sent as written, are accepted. Each failure
 * names every place that breaks the rule, so that a new endpoint without descriptions is caught here.
 */
class OpenApiManualTest extends ManagerTest {

    private static final JsonMapper JSON = JsonMapper.shared();
    /** Property names that, on a string field, always hold one of a closed set of values. */
    private static final Set<String> CLOSED_SET_NAMES = Set.of("mode", "action", "protocol", "kind", "state",
            "transport", "role", "outcome", "trigger", "decision", "adapterType", "connection", "dropReason");
    /** String fields that are free text or a formatted value, although named like a closed set. */
    private static final Set<String> OPEN_STRINGS = Set.of(
            "FlowEntry.action", "Verdict.action", // the engine's printed action, such as "output(port 2, rule 4)"
            "TraceRequest.protocol", // tcp, udp, icmp, icmpv6 or any IP protocol number (a declared pattern)
            "CaptureFilter.protocol"); // the same, and sctp

    private JsonNode api;

    @BeforeEach
    void servedContract() throws Exception {
        api = JSON.readTree(mvc.perform(get("/v3/api-docs")).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString(StandardCharsets.UTF_8));
    }

    @Test
    void everyOperationParameterSchemaAndPropertyIsDescribed() {
        var undescribed = new ArrayList<String>();
        operations().forEach(operation -> {
            if (blank(operation.spec().path("summary"))) {
                undescribed.add("operation " + operation);
            }
            parameters(operation).forEach(parameter -> {
                if (blank(parameter.path("description"))) {
                    undescribed.add("parameter '" + parameter.path("name").asString() + "' of " + operation);
                }
            });
        });
        schemas().forEach((name, schema) -> {
            if (blank(schema.path("description"))) {
                undescribed.add("schema " + name);
            }
            properties(schema).forEach((property, spec) -> {
                if (blank(spec.path("description"))) {
                    undescribed.add("property " + name + "." + property);
                }
            });
        });
        assertThat(undescribed).as("undescribed parts of the contract: add a description (@Operation summary, "
                + "@Parameter or @Schema description)").isEmpty();
    }

    @Test
    void stringFieldsWithAClosedSetOfValuesDeclareThemAsAnEnum() {
        var undeclared = new ArrayList<String>();
        schemas().forEach((name, schema) -> properties(schema).forEach((property, spec) -> {
            var field = name + "." + property;
            if (CLOSED_SET_NAMES.contains(property) && !OPEN_STRINGS.contains(field)
                    && spec.path("type").asString("").equals("string") && spec.path("enum").isEmpty()) {
                undeclared.add(field);
            }
        }));
        assertThat(undeclared).as("string fields of a closed set without an enum (allowableValues)").isEmpty();
    }

    /** The defaults the contract declares for EDP settings are what a host without settings runs. */
    @Test
    void declaredEdpSettingsDefaultsAreWhatAHostWithoutSettingsRuns() throws Exception {
        var host = createHost("esx-01");
        var effective = JSON.readTree(responseBody("/api/v1/hosts/" + host + "/edp")).path("effective");
        var differences = new ArrayList<String>();
        var declared = 0;
        for (var name : List.of("EdpSettings", "DfwLoggingSettings")) {
            for (var property : properties(schemas().get(name)).entrySet()) {
                var declaredDefault = property.getValue().get("default");
                if (declaredDefault == null) {
                    continue;
                }
                declared++;
                var applied = name.equals("EdpSettings") ? effective.path(property.getKey())
                        : effective.path("dfwLogging").path(property.getKey());
                if (!sameValue(declaredDefault, applied)) {
                    differences.add(name + "." + property.getKey() + ": declared " + declaredDefault + ", applied "
                            + applied);
                }
            }
        }
        assertThat(declared).as("EDP settings with a declared default").isGreaterThan(15);
        assertThat(differences).isEmpty();
    }

    @Test
    void everyExampleSatisfiesItsOwnSchema() {
        var invalid = new ArrayList<String>();
        schemas().forEach((name, schema) -> properties(schema).forEach((property, spec) -> {
            if (spec.has("example")) {
                check(name + "." + property, spec.get("example"), spec, invalid);
            }
        }));
        operations().forEach(operation -> parameters(operation).forEach(parameter -> {
            var example = parameter.has("example") ? parameter.get("example") : parameter.at("/schema/example");
            if (!example.isMissingNode()) {
                check("parameter '" + parameter.path("name").asString() + "' of " + operation, example,
                        parameter.path("schema"), invalid);
            }
        }));
        assertThat(invalid).as("examples that break their own schema").isEmpty();
    }

    /**
     * Every create, replace and action with a JSON body, sent with the body its schema's examples make, in the
     * order a user would follow: the resources first, parents before children, then the replaces and the actions
     * on a host's engine, each once the hosts run what was written. Each is accepted as written.
     */
    @Test
    void everyRequestExampleWorksAsWritten() throws Exception {
        var writes = operations().stream()
                .filter(operation -> !operation.spec().at("/requestBody/content/application~1json").isMissingNode())
                // an agent's reports take its host's agent token, not an account: AgentIntegrationTest sends them
                .filter(operation -> !operation.path().startsWith(AgentReports.PATH))
                .sorted(Comparator.comparing((Operation operation) -> itemParameter(operation) == null
                                || needsTheEngine(operation))
                        .thenComparing(operation -> operation.path().chars().filter(c -> c == '{').count())
                        .thenComparing(Operation::path))
                .toList();
        assertThat(writes).hasSizeGreaterThan(20);
        var created = new HashMap<String, String>();
        var refused = new ArrayList<String>();
        for (var operation : writes) {
            if (itemParameter(operation) == null || needsTheEngine(operation)) {
                awaitRealized(created.get("/api/v1/hosts/{hostId}"));
            }
            var path = concrete(operation.path(), created);
            if (path == null) {
                refused.add(operation + ": no example creates the resource its path names");
                continue;
            }
            var body = example(operation.spec().at("/requestBody/content/application~1json/schema"));
            if (body == null) {
                refused.add(operation + ": its body has no example");
                continue;
            }
            var response = mvc.perform(request(HttpMethod.valueOf(operation.method()), path).with(operator())
                    .contentType(MediaType.APPLICATION_JSON).content(body.toString())).andReturn().getResponse();
            if (response.getStatus() / 100 != 2) {
                refused.add(operation + " " + body + " -> " + response.getStatus() + " "
                        + response.getContentAsString(StandardCharsets.UTF_8));
            } else if (itemParameter(operation) != null) {
                created.put(operation.path() + "/" + itemParameter(operation), response.getHeader("Location"));
            }
        }
        assertThat(refused).as("request examples refused as written").isEmpty();
    }

    /** A create that names a port of the host's engine (a capture): it comes with the actions, once the host runs. */
    private static boolean needsTheEngine(Operation operation) {
        return operation.path().endsWith("/captures");
    }

    /** Waits until the host (when there is one) runs its desired generation. */
    private void awaitRealized(String host) throws Exception {
        if (host != null) {
            await(host + " realized", () -> JSON.readTree(performCompleted(get(host + "/realization").with(viewer()))
                            .andReturn().getResponse().getContentAsString()),
                    status -> status.path("state").asString().equals("SUCCESS")
                            && status.path("realizedGeneration").equals(status.path("desiredGeneration")));
        }
    }

    private record Operation(String method, String path, JsonNode spec) {

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    private List<Operation> operations() {
        var operations = new ArrayList<Operation>();
        api.path("paths").properties().forEach(path -> path.getValue().properties().forEach(method ->
                operations.add(new Operation(method.getKey().toUpperCase(), path.getKey(), method.getValue()))));
        return operations;
    }

    /** An operation's parameters, shared ones ({@code $ref} to components/parameters) resolved. */
    private List<JsonNode> parameters(Operation operation) {
        var parameters = new ArrayList<JsonNode>();
        operation.spec().path("parameters").forEach(parameter -> parameters.add(parameter.has("$ref")
                ? api.at(parameter.get("$ref").asString().substring(1)) : parameter));
        return parameters;
    }

    private Map<String, JsonNode> schemas() {
        var schemas = new HashMap<String, JsonNode>();
        api.at("/components/schemas").properties().forEach(entry -> schemas.put(entry.getKey(), entry.getValue()));
        return schemas;
    }

    /** A schema's properties, those of its allOf parts included. */
    private static Map<String, JsonNode> properties(JsonNode schema) {
        var properties = new HashMap<String, JsonNode>();
        schema.path("properties").properties().forEach(entry -> properties.put(entry.getKey(), entry.getValue()));
        schema.path("allOf").forEach(part -> properties.putAll(properties(part)));
        return properties;
    }

    private JsonNode resolve(JsonNode schema) {
        var ref = schema.path("$ref");
        return ref.isMissingNode() ? schema
                : resolve(api.at(ref.asString().substring(1)));
    }

    /** A body made of the schema's examples: its own, or its properties', or an enum's first value; or null. */
    private JsonNode example(JsonNode reference) {
        var schema = resolve(reference);
        if (reference.has("example")) {
            return reference.get("example");
        }
        if (schema.has("example")) {
            return schema.get("example");
        }
        if (!schema.path("enum").isEmpty()) {
            return schema.path("enum").get(0);
        }
        if (schema.has("oneOf")) {
            return example(schema.path("oneOf").get(0));
        }
        if (schema.has("properties") || schema.has("allOf")) {
            ObjectNode object = JsonNodeFactory.instance.objectNode();
            schema.path("allOf").forEach(part -> {
                if (example(part) instanceof ObjectNode members) {
                    object.setAll(members);
                }
            });
            schema.path("properties").properties().forEach(property -> {
                var value = example(property.getValue());
                if (value != null) {
                    object.set(property.getKey(), value);
                }
            });
            return object;
        }
        var item = schema.has("items") ? example(schema.get("items")) : null;
        return item == null ? null : JsonNodeFactory.instance.arrayNode().add(item);
    }

    /** The template with its parameters filled from the resources created so far, or null. */
    private static String concrete(String template, Map<String, String> created) {
        var path = template;
        for (int end = template.indexOf('}'); end >= 0; end = template.indexOf('}', end + 1)) {
            var location = created.get(template.substring(0, end + 1));
            if (location == null) {
                return null;
            }
            path = location + template.substring(end + 1);
        }
        return path;
    }

    /** For a POST that creates an item of its collection, the item's path parameter ("{hostId}"); else null. */
    private String itemParameter(Operation operation) {
        var prefix = operation.path() + "/{";
        return !operation.method().equals("POST") ? null : api.path("paths").propertyNames().stream()
                .filter(path -> path.startsWith(prefix) && path.indexOf('/', prefix.length()) < 0)
                .map(path -> path.substring(operation.path().length() + 1))
                .findFirst().orElse(null);
    }

    /** Adds to {@code invalid} each way {@code value} breaks {@code spec}: type, enum, bounds, length, pattern. */
    private void check(String where, JsonNode value, JsonNode reference, List<String> invalid) {
        var spec = resolve(reference);
        var type = spec.path("type").asString("");
        boolean typed = switch (type) {
            case "string" -> value.isString();
            case "integer" -> value.isIntegralNumber();
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "array" -> value.isArray();
            case "object" -> value.isObject();
            default -> true;
        };
        if (!typed) {
            invalid.add(where + ": " + value + " is not of type " + type);
            return;
        }
        if (!spec.path("enum").isEmpty() && !spec.path("enum").valueStream().toList().contains(value)) {
            invalid.add(where + ": " + value + " is not one of " + spec.path("enum"));
        }
        if (value.isNumber() && spec.has("minimum") && value.decimalValue().compareTo(decimal(spec, "minimum")) < 0
                || value.isNumber() && spec.has("maximum")
                && value.decimalValue().compareTo(decimal(spec, "maximum")) > 0) {
            invalid.add(where + ": " + value + " is out of [" + spec.path("minimum") + ", " + spec.path("maximum")
                    + "]");
        }
        if (value.isString() && (value.asString().length() > spec.path("maxLength").asInt(Integer.MAX_VALUE)
                || value.asString().length() < spec.path("minLength").asInt(0))) {
            invalid.add(where + ": " + value + " has the wrong length");
        }
        if (value.isString() && spec.has("pattern")
                && !Pattern.compile(spec.path("pattern").asString()).matcher(value.asString()).find()) {
            invalid.add(where + ": " + value + " does not match " + spec.path("pattern"));
        }
        if (value.isArray()) {
            if (value.size() > spec.path("maxItems").asInt(Integer.MAX_VALUE)) {
                invalid.add(where + ": more than " + spec.path("maxItems") + " items");
            }
            value.forEach(item -> check(where + "[]", item, spec.path("items"), invalid));
        }
        if (value.isObject()) {
            var properties = properties(spec);
            value.properties().forEach(member -> {
                if (properties.containsKey(member.getKey())) {
                    check(where + "." + member.getKey(), member.getValue(), properties.get(member.getKey()), invalid);
                } else if (!spec.has("additionalProperties") && !properties.isEmpty()) {
                    invalid.add(where + ": unknown member " + member.getKey());
                }
            });
        }
    }

    private static BigDecimal decimal(JsonNode spec, String bound) {
        return spec.path(bound).decimalValue();
    }

    private static boolean sameValue(JsonNode declared, JsonNode applied) {
        return declared.isNumber() && applied.isNumber()
                ? declared.decimalValue().compareTo(applied.decimalValue()) == 0 : declared.equals(applied);
    }

    private static boolean blank(JsonNode text) {
        return text.isMissingNode() || text.isNull() || text.asString().isBlank();
    }
}
