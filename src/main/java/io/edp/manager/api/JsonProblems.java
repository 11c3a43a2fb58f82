package io.edp.manager.api;

import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

/** Says in words a client can act on what is wrong with a JSON document: where, and what. */
final class JsonProblems {

    private JsonProblems() {
    }

    /** The field path, such as {@code numaNodes[0].id}, or {@code $} for the document itself. */
    static String path(JacksonException e) {
        var path = new StringBuilder();
        for (var reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "$" : path.toString();
    }

    static String message(JacksonException e) {
        // Java type names mean nothing to a client: `io.edp.manager.host.vnic.AdapterType` becomes `AdapterType`
        var message = e.getOriginalMessage().replaceAll("`(?:[\\w$]+\\.)+([\\w$]+)`", "`$1`");
        TokenStreamLocation location = e.getLocation();
        if (location != null && location.getLineNr() > 0) {
            message += " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
        }
        return message;
    }
}
