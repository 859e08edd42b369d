package lab.continuationreplay.matrix.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code lab matrix --timings}: the wall time first, then each phase slowest first, with its count and its mean. */
class PhaseTimesTest {
    @Test
    void theWallTimeComesFirstThenThePhasesSlowestFirst() {
        PhaseTimes.add("test_fast", 1_000_000_000L);
        PhaseTimes.add("test_slow", 3_000_000_000L);
        PhaseTimes.add("test_slow", 3_000_000_000L);
        List<String> lines = PhaseTimes.lines(4_250_000_000L);
        assertEquals("wall 4.3 s; each phase summed over the cases playing side by side, slowest first:", lines.get(0));
        int slow = lines.indexOf("  test_slow           6.0 s over    2 (3.00 s each)");
        int fast = lines.indexOf("  test_fast           1.0 s over    1 (1.00 s each)");
        assertTrue(slow > 0 && fast > slow, lines.toString());
    }
}
