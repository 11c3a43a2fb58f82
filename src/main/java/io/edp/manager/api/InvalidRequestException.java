package io.edp.manager.api;

import java.util.List;

import org.springframework.validation.Errors;

/** A request that is well-formed JSON but breaks a rule: answered with 400 and the list of bad fields. */
public class InvalidRequestException extends RuntimeException {

    private final List<FieldProblem> errors;

    public InvalidRequestException(List<FieldProblem> errors) {
        super("Request has invalid fields: " + errors);
        this.errors = List.copyOf(errors);
    }

    public InvalidRequestException(String field, String message) {
        this(List.of(new FieldProblem(field, message)));
    }

    static InvalidRequestException of(Errors errors) {
        return new InvalidRequestException(FieldProblems.of(errors));
    }

    public List<FieldProblem> errors() {
        return errors;
    }
}
