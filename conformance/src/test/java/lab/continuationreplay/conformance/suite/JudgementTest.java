package lab.continuationreplay.conformance.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import lab.continuationreplay.history.Judgement;

class JudgementTest {
    private static final Optional<ExpectedFailures.Entry> LISTED = Optional.of(new ExpectedFailures.Entry(Side.SERVER, "caching",
            "why", "where", "docs/findings/x.md"));

    @Test
    void onlyAnUnlistedFailureOrAListedPassFailsTheRun() {
        assertEquals(Judgement.PASS, ExpectedFailures.judge(Verdict.PASSED, Optional.empty()));
        assertEquals(Judgement.FAIL, ExpectedFailures.judge(Verdict.FAILED, Optional.empty()));
        assertEquals(Judgement.FAIL, ExpectedFailures.judge(Verdict.NOT_RUN, Optional.empty()), "a scenario that did not run is no pass");
        assertEquals(Judgement.EXPECTED_FAILURE, ExpectedFailures.judge(Verdict.FAILED, LISTED));
        assertEquals(Judgement.EXPECTED_FAILURE, ExpectedFailures.judge(Verdict.NOT_RUN, LISTED));
        assertEquals(Judgement.NOW_PASSES, ExpectedFailures.judge(Verdict.PASSED, LISTED));
        assertTrue(Judgement.FAIL.failsTheRun());
        assertTrue(Judgement.NOW_PASSES.failsTheRun(), "a stale list must shrink");
        assertFalse(Judgement.EXPECTED_FAILURE.failsTheRun());
        assertFalse(Judgement.NOT_SERVED.failsTheRun());
    }
}
