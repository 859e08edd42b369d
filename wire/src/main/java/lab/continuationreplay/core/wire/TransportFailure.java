package lab.continuationreplay.core.wire;

/** No reply arrived: the server died, closed stdout, or did not answer within the read timeout. */
public class TransportFailure extends Exception {
    private static final long serialVersionUID = 1L;

    public TransportFailure(String message) {
        super(message);
    }
}
