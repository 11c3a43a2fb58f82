package io.edp.manager.api;

/**
 * One entry of a problem's {@code errors} array: which field of the request is wrong, and why.
 * (Its OpenAPI schema is declared with the problem's, in {@link ConventionsOpenApiCustomizer}.)
 */
public record FieldProblem(String field, String message) {
}
