package io.edp.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Bad input, derived from the served contract ({@code /v3/api-docs}): for every operation, malformed JSON, wrong
 * types, unknown fields, oversized and control-character strings in each field of the body, odd path segments,
 * bad query values, wrong content types and accept headers, no or wrong credentials. Sent over real HTTP to the
 * started server, so that Tomcat's own layer and Spring Security's firewall are exercised too. Every answer must
 * be an error (the input is bad), none a 5xx, all {@code application/problem+json}, and none the login throttle's.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=corpus-operator",
        "edp.security.operator.password={noop}corpus-operator-secret",
        "edp.security.viewer.user=corpus-viewer",
        "edp.security.viewer.password={noop}corpus-viewer-secret",
        "edp.engines.real-drivers=false"})
class BadInputCorpusTest {

    private static final String OPERATOR = basic("corpus-operator", "corpus-operator-secret");
    private static final String VIEWER = basic("corpus-viewer", "corpus-viewer-secret");
    private static final JsonMapper JSON = JsonMapper.shared();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Path segments that no endpoint takes and that layers below Spring MVC treat specially. */
    private static final List<String> ODD_SEGMENTS = List.of("%00", "..%2f", "a;b=c", "%2e%2e", "..",
            "%252e%252e", "%5c", "%ff", "x%01y", "a".repeat(5000));
    private static final List<String> MALFORMED_BODIES = List.of("", "{", "{\"a\":}", "null", "[]", "42",
            "{'single': 'quotes'}", "[".repeat(5000), "\u0000");
    private static final List<String> WRONG_CONTENT_TYPES = List.of("text/plain", "application/xml",
            "application/x-www-form-urlencoded", "application/json; charset=bogus", "not a media type");

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Probe> probes = new ArrayList<>();

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
    }

    private record Operation(String method, String path, JsonNode spec) {
    }

    /** One request of the corpus, and how to name it in a failure. */
    private record Probe(String what, HttpRequest request) {
    }

    @Test
    void everyBadRequestToEveryOperationIsAProblemDetailAndNoneA5xx() throws Exception {
        long started = System.nanoTime();
        JsonNode api = JSON.readTree(send("GET", "/v3/api-docs", null, null, null).body());
        var operations = operations(api);
        assertThat(operations).hasSizeGreaterThan(40);

        for (var operation : operations) {
            String path = concrete(operation.path());
            credentials(operation, path);
            oddPaths(operation);
            queries(operation, path, api);
            accepts(operation, path);
            JsonNode body = operation.spec().at("/requestBody/content");
            if (!body.isMissingNode()) {
                String mediaType = body.propertyNames().iterator().next();
                JsonNode schema = resolve(api, body.path(mediaType).path("schema"));
                bodies(operation, path, mediaType, schema, api);
            }
        }
        outsideTheApi();
        var failures = sendAll();

        System.out.printf("Bad-input corpus: %,d requests over %d operations, %d failures, %.1f s%n", probes.size(),
                operations.size(), failures.size(), (System.nanoTime() - started) / 1e9);
        assertThat(failures).as("requests answered with a 5xx, a success, or not as problem+json").isEmpty();
    }

    /** What Tomcat itself refuses, before any servlet runs: a problem detail, not its HTML page. */
    @Test
    void pathsTomcatRefusesAreProblemDetailsSayingHowToFixThem() throws Exception {
        for (String path : List.of("/api/v1/hosts/%00", "/api/v1/hosts/..%2f..%2fetc")) {
            var response = send("GET", path, OPERATOR, null, null);
            assertThat(response.statusCode()).as(path).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type")).as(path)
                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(JSON.readTree(response.body()).path("detail").asString()).as(path)
                    .contains("send a plain path");
        }
    }

    /** What Spring Security's firewall refuses: a problem detail naming the reason, not Boot's error JSON. */
    @Test
    void pathsTheFirewallRefusesAreProblemDetailsNamingTheReason() throws Exception {
        for (String path : List.of("/api/v1/hosts/a;b=c", "//api/v1/hosts", "/api/v1/%2e%2e/hosts")) {
            var response = send("GET", path, OPERATOR, null, null);
            assertThat(response.statusCode()).as(path).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type")).as(path)
                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
            JsonNode problem = JSON.readTree(response.body());
            assertThat(problem.path("status").asInt()).isEqualTo(400);
            assertThat(problem.path("detail").asString()).as(path).contains("rejected", "send a plain path");
        }
    }

    @Test
    void theErrorPathWithoutCredentialsIs404NotA500() throws Exception {
        var response = send("GET", "/error", null, null, null);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(JSON.readTree(response.body()).path("status").asInt()).isEqualTo(404);
    }

    @Test
    void aChunkedBodyOverTheLimitIs413ProblemDetails() throws Exception {
        byte[] huge = ("{\"name\": \"" + "a".repeat(1_100_000) + "\"}").getBytes(StandardCharsets.UTF_8);
        var request = request("POST", "/api/v1/hosts", OPERATOR, null, "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(huge)));

        var response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(JSON.readTree(response.body()).path("detail").asString()).contains("edp.requests.max-body-size");
    }

    private void credentials(Operation operation, String path) throws Exception {
        expect(operation.method(), path, null, null, null);
        // a user name of its own each time: failed logins are throttled per user, and the corpus is not a guesser
        expect(operation.method(), path, basic("corpus-guess-" + probes.size(), "not-the-password"), null, null);
        expect(operation.method(), path, "Basic " + "%%%not-base64", null, null);
        expect(operation.method(), path, "Bearer abc", null, null);
        if (!operation.method().equals("GET") || path.contains("accounts") || path.contains("audit")) {
            expect(operation.method(), path, VIEWER, null, null);
        }
    }

    private void oddPaths(Operation operation) throws Exception {
        // the last variable only: the ones before it are the last of their parent's operations
        String template = operation.path();
        int variable = template.lastIndexOf('{');
        if (variable >= 0) {
            String name = template.substring(variable, template.indexOf('}', variable) + 1);
            for (String odd : ODD_SEGMENTS) {
                expect(operation.method(), concrete(template.replace(name, odd)), OPERATOR, null, null);
            }
        }
        String path = concrete(template);
        int last = path.lastIndexOf('/');
        for (String odd : List.of(";b=c", "%00", "/", "/..", "/%2e%2e", "/unknown")) {
            expect(operation.method(), path + odd, OPERATOR, null, null);
        }
        expect(operation.method(), path.substring(0, last) + "//" + path.substring(last + 1), OPERATOR, null, null);
        expect(operation.method(), "/" + path, OPERATOR, null, null);
        expect(operation.method(), path.substring(0, last) + "/%2e%2e" + path.substring(last), OPERATOR, null, null);
    }

    private void queries(Operation operation, String path, JsonNode api) throws Exception {
        String body = operation.spec().has("requestBody") ? "{}" : null;
        expect(operation.method(), path + "?bogus=1", OPERATOR, body, "application/json");
        for (JsonNode parameter : operation.spec().path("parameters")) {
            if (!parameter.path("in").asString().equals("query")) {
                continue;
            }
            String name = parameter.path("name").asString();
            String type = resolve(api, parameter.path("schema")).path("type").asString();
            var values = new ArrayList<>(List.of("%00", "x%01y", "a".repeat(5000)));
            if (type.equals("integer") || type.equals("number")) {
                values.addAll(List.of("abc", "99999999999999999999", "-1"));
            } else if (type.equals("boolean")) {
                values.add("maybe");
            }
            for (String value : values) {
                expect(operation.method(), path + "?" + name + "=" + value, OPERATOR, body, "application/json");
            }
        }
    }

    private void accepts(Operation operation, String path) throws Exception {
        for (String accept : List.of("text/html", "application/xml", "image/png")) {
            var request = request(operation.method(), path, OPERATOR, "[", "application/json")
                    .header("Accept", accept);
            check(operation.method(), path + " (Accept: " + accept + ")", request);
        }
    }

    private void bodies(Operation operation, String path, String mediaType, JsonNode schema, JsonNode api)
            throws Exception {
        String method = operation.method();
        for (String malformed : MALFORMED_BODIES) {
            expect(method, path, OPERATOR, malformed, mediaType);
        }
        for (String contentType : WRONG_CONTENT_TYPES) {
            expect(method, path, OPERATOR, "{}", contentType);
        }
        if (!mediaType.equals("application/json")) {
            expect(method, path, OPERATOR, "{}", "application/json");
        }
        expect(method, path, OPERATOR, "{}", null);
        expect(method, path, OPERATOR, "{\"x\": \"" + "a".repeat(1_100_000) + "\"}", mediaType);

        if (!(example(api, schema) instanceof ObjectNode valid)) {
            return; // a file's bytes (an agent's capture upload): no fields to get wrong
        }
        var unknown = valid.deepCopy().put("bogusField", 1).put("otherBogus", "x");
        expect(method, path, OPERATOR, unknown.toString(), mediaType);
        for (var field : leaves(api, schema, "")) {
            for (JsonNode bad : badValues(field.schema())) {
                expect(method, path, OPERATOR, with(valid, field.pointer(), bad).toString(), mediaType);
            }
            if (field.pointer().lastIndexOf('/') > 0) {
                String parent = field.pointer().substring(0, field.pointer().lastIndexOf('/'));
                JsonNode nested = valid.at(parent);
                if (nested instanceof ObjectNode object) {
                    expect(method, path, OPERATOR, with(valid, parent, object.deepCopy().put("bogusNested", 1))
                            .toString(), mediaType);
                }
            }
        }
    }

    /** Requests outside the documented operations that a client (or a scanner) sends anyway. */
    private void outsideTheApi() throws Exception {
        for (String path : List.of("/error", "/error?x=1", "//x", "/%00", "/api/v1/%2e%2e/hosts", "/api/v1/nothing",
                "/api/v1/hosts/a;b=c", "/api/v1/..%2fhosts", "/.%2e/.%2e/etc/passwd", "/api/v2/hosts")) {
            expect("GET", path, null, null, null);
            expect("GET", path, OPERATOR, null, null);
        }
        expect("DELETE", "/api/v1/hosts", OPERATOR, null, null);
        expect("PATCH", "/api/v1/hosts", OPERATOR, "{}", "application/merge-patch+json");
        expect("TRACE", "/api/v1/hosts", OPERATOR, null, null);
        expect("OPTIONS", "/api/v1/hosts", null, null, null);
    }

    private record Field(String pointer, JsonNode schema) {
    }

    /** Every scalar or collection field of the schema, by JSON pointer, nested objects included. */
    private static List<Field> leaves(JsonNode api, JsonNode schema, String prefix) {
        var fields = new ArrayList<Field>();
        JsonNode resolved = resolve(api, schema);
        if (resolved.has("oneOf")) {
            resolved = resolve(api, resolved.path("oneOf").get(0));
        }
        for (var property : resolved.path("properties").properties()) {
            JsonNode propertySchema = resolve(api, property.getValue());
            String pointer = prefix + "/" + property.getKey();
            fields.add(new Field(pointer, propertySchema));
            if (propertySchema.has("properties") || propertySchema.has("oneOf")) {
                fields.addAll(leaves(api, propertySchema, pointer));
            }
        }
        return fields;
    }

    private static List<JsonNode> badValues(JsonNode schema) {
        if (schema.path("type").isArray()) { // one of several types: a value of none of them
            var types = schema.path("type").valueStream().map(JsonNode::asString).toList();
            var values = new ArrayList<JsonNode>();
            if (!types.contains("string")) {
                values.add(NODES.stringNode("none of " + types));
            }
            if (!types.contains("object")) {
                values.add(NODES.objectNode().put("x", 1));
            }
            if (!types.contains("array")) {
                values.add(NODES.arrayNode().add(1));
            }
            return values;
        }
        String type = schema.path("type").asString();
        var values = new ArrayList<JsonNode>(List.of(NODES.objectNode().put("x", 1), NODES.arrayNode().add(1)));
        switch (type) {
            case "string" -> {
                values.addAll(List.of(NODES.numberNode(42), NODES.booleanNode(true), NODES.stringNode("a\u0000b"),
                        NODES.stringNode("a\u001bb"),
                        NODES.stringNode("x".repeat(schema.path("maxLength").asInt(100_000) + 1))));
            }
            case "integer", "number" -> values.addAll(List.of(NODES.stringNode("42"), NODES.booleanNode(true),
                    NODES.numberNode(4.5), NODES.numberNode(new java.math.BigInteger("99999999999999999999999"))));
            case "boolean" -> values.addAll(List.of(NODES.stringNode("true"), NODES.numberNode(1)));
            case "array" -> {
                values.set(1, NODES.stringNode("not an array"));
                var tooMany = NODES.arrayNode();
                for (int i = 0; i <= schema.path("maxItems").asInt(10_000); i++) {
                    tooMany.add(i);
                }
                values.add(tooMany);
                values.add(NODES.arrayNode().addNull());
            }
            case "object" -> {
                values.set(0, NODES.stringNode("not an object"));
                var tooMany = NODES.objectNode();
                for (int i = 0; i <= schema.path("maxProperties").asInt(10_000); i++) {
                    tooMany.put("k" + i, i);
                }
                values.add(tooMany);
                values.add(NODES.objectNode().put("bad\u0000key", "v"));
            }
            default -> values.add(NODES.stringNode("\u0000"));
        }
        return values;
    }

    /** A body that follows the schema, from its examples where it has them. */
    private static JsonNode example(JsonNode api, JsonNode schema) {
        JsonNode resolved = resolve(api, schema);
        if (resolved.has("oneOf")) {
            var first = (ObjectNode) example(api, resolved.path("oneOf").get(0));
            var kind = resolved.at("/discriminator/propertyName");
            if (!kind.isMissingNode()) {
                var mapping = resolved.at("/discriminator/mapping");
                first.put(kind.asString(), mapping.isObject() ? mapping.propertyNames().iterator().next() : "x");
            }
            return first;
        }
        if (resolved.has("example")) {
            return resolved.get("example");
        }
        return switch (resolved.path("type").asString("object")) {
            case "string" -> resolved.has("enum") ? resolved.path("enum").get(0) : NODES.stringNode("x");
            case "integer", "number" -> NODES.numberNode(resolved.path("minimum").asInt(1));
            case "boolean" -> NODES.booleanNode(true);
            case "array" -> NODES.arrayNode().add(example(api, resolved.path("items")));
            default -> {
                var object = NODES.objectNode();
                for (var property : resolved.path("properties").properties()) {
                    if (!property.getValue().path("readOnly").asBoolean()) {
                        object.set(property.getKey(), example(api, property.getValue()));
                    }
                }
                yield object;
            }
        };
    }

    private static JsonNode with(ObjectNode body, String pointer, JsonNode value) {
        var copy = body.deepCopy();
        int last = pointer.lastIndexOf('/');
        JsonNode parent = last == 0 ? copy : copy.at(pointer.substring(0, last));
        if (parent instanceof ObjectNode object) {
            object.set(pointer.substring(last + 1), value);
        }
        return copy;
    }

    private static JsonNode resolve(JsonNode api, JsonNode schema) {
        JsonNode at = schema;
        while (at.has("$ref")) {
            at = api.at(at.path("$ref").asString().substring(1));
        }
        return at;
    }

    private static List<Operation> operations(JsonNode api) {
        var operations = new ArrayList<Operation>();
        for (var path : api.path("paths").properties()) {
            for (var method : path.getValue().properties()) {
                if (Set.of("get", "put", "post", "patch", "delete").contains(method.getKey())) {
                    operations.add(new Operation(method.getKey().toUpperCase(), path.getKey(), method.getValue()));
                }
            }
        }
        return operations;
    }

    /** The path with every variable set to a well-formed value (of nothing that exists). */
    private static String concrete(String template) {
        return template.replaceAll("\\{name}", "nobody").replaceAll("\\{[A-Za-z]+}", new UUID(0, 1).toString());
    }

    private void expect(String method, String path, String authorization, String body, String contentType)
            throws Exception {
        check(method, path, request(method, path, authorization, body, contentType));
    }

    private HttpRequest.Builder request(String method, String path, String authorization, String body,
                                        String contentType) {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return request;
    }

    private void check(String method, String what, HttpRequest.Builder request) {
        probes.add(new Probe(method + " " + abbreviated(what), request.build()));
    }

    /**
     * Sends the corpus four requests at a time (the requests are independent: bad input changes nothing) and
     * returns what was answered wrongly.
     */
    private List<String> sendAll() throws Exception {
        var failures = new ArrayList<String>();
        try (var pool = Executors.newFixedThreadPool(4)) {
            var answers = new ArrayList<Future<HttpResponse<String>>>();
            for (var probe : probes) {
                answers.add(pool.submit(() -> http.send(probe.request(), HttpResponse.BodyHandlers.ofString())));
            }
            for (int i = 0; i < probes.size(); i++) {
                var response = answers.get(i).get();
                String type = response.headers().firstValue("Content-Type").orElse("");
                // 429 would mean the login throttle answered instead of the layer under test
                if (response.statusCode() >= 500 || response.statusCode() < 400 || response.statusCode() == 429
                        || !type.startsWith("application/problem+json")) {
                    failures.add(probes.get(i).what() + " -> " + response.statusCode() + " " + type + " "
                            + abbreviated(response.body()));
                }
            }
        }
        return failures;
    }

    private HttpResponse<String> send(String method, String path, String authorization, String body,
                                      String contentType) throws Exception {
        return http.send(request(method, path, authorization, body, contentType).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String abbreviated(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "…" : text;
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
