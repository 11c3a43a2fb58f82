package io.edp.manager.api;

import java.util.Map;

import org.springframework.stereotype.Component;
import org.springframework.validation.BeanPropertyBindingResult;
import org.springframework.validation.beanvalidation.SpringValidatorAdapter;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON Merge Patch (RFC 7386): the patch is merged into the resource's current representation, {@code null} removes
 * a member, and the result is validated exactly like the body of a PUT.
 */
@Component
public class MergePatch {

    public static final String MEDIA_TYPE = "application/merge-patch+json";

    /** The discriminator of the API's polymorphic members. */
    private static final String KIND = "kind";

    private final JsonMapper mapper;
    private final SpringValidatorAdapter validator;

    MergePatch(JsonMapper mapper, jakarta.validation.Validator validator) {
        this.mapper = mapper;
        this.validator = new SpringValidatorAdapter(validator);
    }

    /** Applies {@code patch} to {@code current} and returns the validated result. */
    public <T> T apply(T current, JsonNode patch, Class<T> type) {
        if (!patch.isObject()) {
            throw new InvalidRequestException("$", "a merge patch of this resource must be a JSON object");
        }
        JsonNode merged = merge(mapper.valueToTree(current), patch);
        T result;
        try {
            result = StrictJson.UnknownFields.refused(() -> mapper.treeToValue(merged, type));
        } catch (JacksonException e) {
            throw new InvalidRequestException(JsonProblems.path(e), JsonProblems.message(e));
        }
        var errors = new BeanPropertyBindingResult(result, type.getSimpleName());
        validator.validate(result, errors);
        if (errors.hasErrors()) {
            throw InvalidRequestException.of(errors);
        }
        return result;
    }

    /**
     * A member whose {@code kind} changes (a NIC's driver) is replaced, not merged: the settings of one kind mean
     * nothing to another, and read strictly they would be unknown fields.
     */
    private static boolean kindChanges(JsonNode target, JsonNode patch) {
        return target.isObject() && patch.has(KIND) && !patch.get(KIND).equals(target.get(KIND));
    }

    static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject() || kindChanges(target, patch)) {
            return patch;
        }
        ObjectNode result = target.isObject() ? (ObjectNode) target.deepCopy() : JsonMapper.shared().createObjectNode();
        for (Map.Entry<String, JsonNode> member : patch.properties()) {
            if (member.getValue().isNull()) {
                result.remove(member.getKey());
            } else {
                result.set(member.getKey(), merge(result.path(member.getKey()), member.getValue()));
            }
        }
        return result;
    }
}
