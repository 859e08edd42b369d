package lab.continuationreplay.store.ledger;

/**
 * The ledger refused an operation for a reason the caller must see: the wire code (e.g. {@code operation_conflict})
 * is what servers put on the wire; the message is diagnostic detail.
 */
public abstract class OperationRejected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    protected OperationRejected(String message) {
        super(message);
    }

    /** The stable code servers send, the same in every SDK. */
    public abstract String wireCode();
}
