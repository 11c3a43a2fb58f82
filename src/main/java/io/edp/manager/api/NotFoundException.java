package io.edp.manager.api;

/** The addressed resource does not exist: 404. */
public class NotFoundException extends RuntimeException {

    public NotFoundException(String message) {
        super(message);
    }
}
