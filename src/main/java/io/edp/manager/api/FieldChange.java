package io.edp.manager.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

import tools.jackson.databind.JsonNode;

/**
 * A field of a resource's representation that a write changes, as a dry run answers it.
 *
 * @param field  the field's path: members of nested objects joined by dots ({@code settings.mode})
 * @param before its value stored now, null if absent (a create)
 * @param after  its value after the write, null if absent (a delete)
 */
public record FieldChange(String field, JsonNode before, JsonNode after) {

    /**
     * The fields that differ between two representations (objects compared member by member, any other value whole).
     */
    public static List<FieldChange> between(JsonNode before, JsonNode after) {
        var changes = new ArrayList<FieldChange>();
        collect("", before, after, changes);
        return changes;
    }

    private static void collect(String path, JsonNode before, JsonNode after, List<FieldChange> changes) {
        if (isObject(before) && isObject(after) || path.isEmpty()) {
            var names = new TreeSet<String>();
            if (isObject(before)) {
                names.addAll(before.propertyNames());
            }
            if (isObject(after)) {
                names.addAll(after.propertyNames());
            }
            for (var name : names) {
                collect(path.isEmpty() ? name : path + "." + name, member(before, name), member(after, name), changes);
            }
        } else if (!Objects.equals(before, after)) {
            changes.add(new FieldChange(path, before, after));
        }
    }

    private static boolean isObject(JsonNode node) {
        return node != null && node.isObject();
    }

    private static JsonNode member(JsonNode node, String name) {
        var member = isObject(node) ? node.get(name) : null;
        return member == null || member.isNull() ? null : member;
    }
}
