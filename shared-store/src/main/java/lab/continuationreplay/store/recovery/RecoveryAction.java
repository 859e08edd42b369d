package lab.continuationreplay.store.recovery;

/** What a consumer may do about an operation. There is deliberately no "retry". */
public enum RecoveryAction {
    RECONCILE("reconcile"),
    RETURN_STORED_RESULT("return_stored_result"),
    STOP("stop");

    private final String wire;

    RecoveryAction(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
