package io.edp.engine.nic;

/**
 * A port could not be opened or closed: the message is one line a user can act on (which device or file,
 * which step, why), so a command line prints it without a stack trace.
 */
public class NicSetupException extends RuntimeException {

    public NicSetupException(String message) {
        super(message);
    }

    public NicSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
