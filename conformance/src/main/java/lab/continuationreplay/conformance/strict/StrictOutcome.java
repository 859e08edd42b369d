package lab.continuationreplay.conformance.strict;

/**
 * How one strict check ended. Not-run is no failure, but the report always says why it did not run. A departure is a
 * server that does not do what the specification says it SHOULD: reported with its evidence, failing nothing.
 */
public enum StrictOutcome {
    PASS("pass"),
    FAIL("fail"),
    DEPARTS("departs"),
    NOT_RUN("not-run");

    private final String word;

    StrictOutcome(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }
}
