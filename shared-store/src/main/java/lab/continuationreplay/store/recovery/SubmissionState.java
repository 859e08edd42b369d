package lab.continuationreplay.store.recovery;

/** Whether the server took the request. After a lost reply the consumer can only say {@code unknown}. */
public enum SubmissionState {
    NOT_ADMITTED("not_admitted"),
    ADMITTED("admitted"),
    UNKNOWN("unknown");

    private final String wire;

    SubmissionState(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
