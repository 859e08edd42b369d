package lab.continuationreplay.conformance.suite;

import java.util.Optional;

/** A scored scenario's outcome held against the SDK's expected failures. */
public enum Judgement {
    PASS("pass", false),
    /** Failed, and listed as a failure of the SDK itself, with its finding. */
    EXPECTED_FAILURE("expected failure", false),
    FAIL("FAIL", true),
    /** Listed as expected to fail, but passed: the list is stale and must shrink. */
    NOW_PASSES("passes, but is listed as an expected failure", true),
    /** A client scenario whose steps the lab's client drivers cannot play (reported, not counted either way). */
    NOT_SERVED("not served by the client drivers", false);

    private final String label;
    private final boolean failsTheRun;

    Judgement(String label, boolean failsTheRun) {
        this.label = label;
        this.failsTheRun = failsTheRun;
    }

    public String label() {
        return label;
    }

    public boolean failsTheRun() {
        return failsTheRun;
    }

    public static Judgement of(Verdict verdict, Optional<ExpectedFailures.Entry> expected) {
        boolean passed = verdict == Verdict.PASSED;
        if (expected.isPresent()) {
            return passed ? NOW_PASSES : EXPECTED_FAILURE;
        }
        return passed ? PASS : FAIL;
    }
}
