package lab.continuationreplay.store.guard;

/** A tool call the guard refuses before any effect: bad arguments, state or input responses. */
public final class InvalidApplicationRequest extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidApplicationRequest(String message) {
        super(message);
    }

    public InvalidApplicationRequest(String message, Throwable cause) {
        super(message, cause);
    }
}
