package io.edp.manager.api;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.InvalidTypeIdException;

/** Says in words a client can act on what is wrong with a JSON document: where, and what. */
final class JsonProblems {

    private JsonProblems() {
    }

    /**
     * The field path, such as {@code numaNodes[0].id}, or {@code $} for the document itself; for a wrong or missing
     * type id, its property ({@code driver.kind}).
     */
    static String path(JacksonException e) {
        var path = new StringBuilder();
        for (var reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        if (e instanceof InvalidTypeIdException typeId) {
            path.append(path.isEmpty() ? "" : ".").append(typeProperty(typeId.getBaseType()));
        }
        return path.isEmpty() ? "$" : path.toString();
    }

    /** The path of the value a parser is at, in the same form. */
    static String path(TokenStreamContext context) {
        var segments = new ArrayDeque<String>();
        for (var at = context; at != null && !at.inRoot(); at = at.getParent()) {
            if (at.inArray()) {
                segments.push("[" + Math.max(at.getCurrentIndex(), 0) + "]");
            } else if (at.currentName() != null) {
                segments.push("." + at.currentName());
            }
        }
        var path = String.join("", segments);
        return path.isEmpty() ? "$" : path.startsWith(".") ? path.substring(1) : path;
    }

    static String message(JacksonException e) {
        if (e instanceof InvalidTypeIdException typeId) {
            return typeIdMessage(typeId);
        }
        if (e instanceof InvalidFormatException format && format.getTargetType() != null
                && format.getTargetType().isEnum()) {
            return "'" + format.getValue() + "' is not one of: " + Arrays.stream(format.getTargetType()
                    .getEnumConstants()).map(constant -> ((Enum<?>) constant).name()).collect(Collectors.joining(", "));
        }
        // Java type names mean nothing to a client: `io.edp.manager.host.vnic.AdapterType` becomes `AdapterType`
        var message = e.getOriginalMessage().replaceAll("`(?:[\\w$]+\\.)+([\\w$]+)`", "`$1`");
        TokenStreamLocation location = e.getLocation();
        if (location != null && location.getLineNr() > 0) {
            message += " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
        }
        return message;
    }

    /** Which value the type property ({@code kind}) must take, in place of a Java class name. */
    private static String typeIdMessage(InvalidTypeIdException e) {
        var property = typeProperty(e.getBaseType());
        return (e.getTypeId() == null ? "`" + property + "` is missing" : "`" + property + "` '" + e.getTypeId()
                + "' is not known") + choices(e.getBaseType() == null ? Object.class : e.getBaseType().getRawClass());
    }

    private static String typeProperty(JavaType base) {
        return typeProperty(base == null ? Object.class : base.getRawClass());
    }

    private static String typeProperty(Class<?> base) {
        var info = base.getAnnotation(JsonTypeInfo.class);
        return info == null ? "type" : info.property();
    }

    private static String choices(Class<?> base) {
        var subTypes = base.getAnnotation(JsonSubTypes.class);
        return subTypes == null ? "" : Arrays.stream(subTypes.value()).map(JsonSubTypes.Type::name)
                .collect(Collectors.joining(", ", "; it must be one of: ", ""));
    }
}
