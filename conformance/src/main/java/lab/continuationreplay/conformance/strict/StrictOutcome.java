package lab.continuationreplay.conformance.strict;

/** How one strict check ended. Not-run is no failure, but the report always says why it did not run. */
public enum StrictOutcome {
    PASS("pass"),
    FAIL("fail"),
    NOT_RUN("not-run");

    private final String word;

    StrictOutcome(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }
}
