package io.edp.manager.api;

/** The request needs the database and cannot have it now: answered 503 with {@code Retry-After}. */
public class DatabaseUnavailableException extends UnavailableException {

    public DatabaseUnavailableException(String message) {
        super(message);
    }
}
