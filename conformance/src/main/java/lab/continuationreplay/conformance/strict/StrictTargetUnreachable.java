package lab.continuationreplay.conformance.strict;

/** The target could not be reached at all (no connection): one line for the user, nothing was checked. */
public final class StrictTargetUnreachable extends Exception {
    private static final long serialVersionUID = 1L;

    public StrictTargetUnreachable(String message) {
        super(message);
    }
}
