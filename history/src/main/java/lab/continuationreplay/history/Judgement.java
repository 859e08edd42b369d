package lab.continuationreplay.history;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An outcome held against a list of expected failures: what {@code lab conformance} says of a scored scenario and
 * {@code lab clients} of a client case in a cell. An expected failure is a failure of the SDK itself, listed with its
 * reason, where in the SDK the cause lives and a finding page; a listed one that passes means the list is stale.
 */
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

    /** The judgement of an outcome that {@code passed} or not, {@code listed} as an expected failure or not. */
    public static Judgement of(boolean passed, boolean listed) {
        if (listed) {
            return passed ? NOW_PASSES : EXPECTED_FAILURE;
        }
        return passed ? PASS : FAIL;
    }

    /**
     * Checks that an expected failure's {@code finding} names a page under {@code docs/findings/} of {@code home} that
     * exists: an entry without its reproduction is refused. {@code at} names the entry in the message.
     */
    public static void requireFinding(Path home, String finding, String at) {
        if (finding == null || !finding.startsWith("docs/findings/") || !finding.endsWith(".md")
                || finding.contains("..") || !Files.isRegularFile(home.resolve(finding))) {
            throw new IllegalArgumentException(at + ": \"finding\" must name a page under docs/findings/ that exists, not " + finding);
        }
    }
}
