package io.edp.manager.api;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.springframework.validation.Errors;

/** Bean Validation results, as the {@code errors} array of a problem. */
final class FieldProblems {

    private FieldProblems() {
    }

    static List<FieldProblem> of(Errors errors) {
        var fields = errors.getFieldErrors().stream()
                .map(error -> new FieldProblem(error.getField(), error.getDefaultMessage()));
        var global = errors.getGlobalErrors().stream()
                .map(error -> new FieldProblem(error.getObjectName(), error.getDefaultMessage()));
        return Stream.concat(fields, global)
                .sorted(Comparator.comparing(FieldProblem::field).thenComparing(FieldProblem::message))
                .toList();
    }
}
