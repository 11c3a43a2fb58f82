package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.util.ArrayList;
import java.util.List;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every string, list and map a client can send in a request body has a bound in the served contract (and so in
 * the request records, from which the contract is generated): a new endpoint with an unbounded field fails here.
 * Enumerations, UUIDs and timestamps are bounded by their format. A merge patch is a free-form object whose
 * merged result is validated as the PUT body, whose schema this test checks.
 */
class BoundedRequestBodiesTest extends ManagerTest {

    private static final String MERGE_PATCH_TYPE = "application/merge-patch+json";

    @Test
    void everyStringListAndMapOfARequestBodyIsBounded() throws Exception {
        JsonNode api = JsonMapper.shared().readTree(
                mvc.perform(get("/v3/api-docs")).andReturn().getResponse().getContentAsString());
        var unbounded = new ArrayList<String>();
        int checked = 0;
        for (var path : api.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                for (var content : operation.getValue().at("/requestBody/content").properties()) {
                    if (!content.getKey().equals(MERGE_PATCH_TYPE)) {
                        checked++;
                        walk(api, content.getValue().path("schema"),
                                operation.getKey().toUpperCase() + " " + path.getKey() + " $",
                                unbounded, new ArrayList<>());
                    }
                }
            }
        }

        assertThat(checked).as("request bodies checked").isGreaterThan(15);
        assertThat(unbounded).as("request body fields without maxLength, maxItems or maxProperties").isEmpty();
    }

    private static void walk(JsonNode api, JsonNode schema, String where, List<String> unbounded, List<String> seen) {
        if (schema.has("$ref")) {
            String ref = schema.path("$ref").asString();
            if (seen.contains(ref)) {
                return;
            }
            seen.add(ref);
            walk(api, api.at(ref.substring(1)), where, unbounded, seen);
            seen.remove(ref);
            return;
        }
        for (String combined : List.of("oneOf", "anyOf", "allOf")) {
            schema.path(combined).forEach(part -> walk(api, part, where, unbounded, seen));
        }
        switch (schema.path("type").asString("")) {
            case "string" -> {
                // a file (an agent's capture upload) is bounded where it is read, by what it may hold
                if (!schema.has("maxLength") && !schema.has("enum")
                        && !List.of("uuid", "date-time", "binary").contains(schema.path("format").asString(""))) {
                    unbounded.add(where + " (string)");
                }
            }
            case "array" -> {
                if (!schema.has("maxItems")) {
                    unbounded.add(where + " (list)");
                }
                walk(api, schema.path("items"), where + "[]", unbounded, seen);
            }
            case "object" -> {
                if (schema.has("additionalProperties") && schema.path("additionalProperties").isObject()) {
                    if (!schema.has("maxProperties")) {
                        unbounded.add(where + " (map)");
                    }
                    walk(api, schema.path("additionalProperties"), where + "{}", unbounded, seen);
                    walk(api, schema.path("propertyNames"), where + "{key}", unbounded, seen);
                }
                for (var property : schema.path("properties").properties()) {
                    if (!property.getValue().path("readOnly").asBoolean()) {
                        walk(api, property.getValue(), where + "." + property.getKey(), unbounded, seen);
                    }
                }
            }
            default -> {
            }
        }
    }
}
