package lab.continuationreplay.store.ledger;

/** Wire code {@code operation_retention_expired}. */
public final class OperationRetentionExpired extends OperationRejected {
    private static final long serialVersionUID = 1L;

    public OperationRetentionExpired(String message) {
        super(message);
    }

    @Override
    public String wireCode() {
        return "operation_retention_expired";
    }
}
