package lab.continuationreplay.server.state;

/**
 * A {@code requestState} that does not open. The reason is for the server's log only: on the wire every failure is
 * the same frozen error, so a client learns nothing about which check failed.
 */
public final class InvalidRequestState extends Exception {
    private static final long serialVersionUID = 1L;

    public InvalidRequestState(String reason) {
        super(reason);
    }
}
