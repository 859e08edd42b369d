package lab.continuationreplay.store.ledger;

/** Wire code {@code operation_authority_expired}. */
public final class OperationAuthorityExpired extends OperationRejected {
    private static final long serialVersionUID = 1L;

    public OperationAuthorityExpired(String message) {
        super(message);
    }

    @Override
    public String wireCode() {
        return "operation_authority_expired";
    }
}
