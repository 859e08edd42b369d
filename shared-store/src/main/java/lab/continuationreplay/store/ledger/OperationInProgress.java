package lab.continuationreplay.store.ledger;

/** Wire code {@code operation_in_progress}. */
public final class OperationInProgress extends OperationRejected {
    private static final long serialVersionUID = 1L;

    public OperationInProgress(String message) {
        super(message);
    }

    @Override
    public String wireCode() {
        return "operation_in_progress";
    }
}
