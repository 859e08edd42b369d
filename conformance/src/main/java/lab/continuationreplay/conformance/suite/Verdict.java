package lab.continuationreplay.conformance.suite;

/** A scenario's outcome as the suite reports it: passed only if none of its checks failed. */
public enum Verdict {
    PASSED("pass"),
    FAILED("fail"),
    /** The suite wrote no checks for it: it crashed on the scenario, or was never asked. */
    NOT_RUN("not run");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
