package io.edp.manager.api;

/**
 * The request cannot be served now, though it may be in a moment: answered 503 with {@code Retry-After}
 * ({@code edp.database.retry-after}) and this message as the problem's detail.
 */
public class UnavailableException extends RuntimeException {

    public UnavailableException(String message) {
        super(message);
    }
}
