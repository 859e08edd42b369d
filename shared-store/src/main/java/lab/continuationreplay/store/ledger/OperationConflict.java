package lab.continuationreplay.store.ledger;

/** Wire code {@code operation_conflict}. */
public final class OperationConflict extends OperationRejected {
    private static final long serialVersionUID = 1L;

    public OperationConflict(String message) {
        super(message);
    }

    @Override
    public String wireCode() {
        return "operation_conflict";
    }
}
