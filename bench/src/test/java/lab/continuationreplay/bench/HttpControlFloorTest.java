package lab.continuationreplay.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The floor of benchmark 7's 16-client goal: the unguarded control's CPU ceiling over the bare loop. */
class HttpControlFloorTest {
    private static Goal goal(double figure, double bare) {
        return Goal.atLeast("http_concurrent_java", "s", "java http, 16 clients", figure, "bare commit loop", bare, "commits/s", 0.7)
                .withRounds(List.of(figure / bare));
    }

    @Test
    void theCeilingIsWhatTheCoresAllowAtTheControlsCpuPerCommit() {
        assertEquals(4000, HttpCeilings.ceiling(2, 0.5), 1e-9);
        assertEquals(2000, HttpCeilings.ceiling(1, 0.5), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> HttpCeilings.ceiling(2, 0));
        assertThrows(IllegalArgumentException.class, () -> HttpCeilings.ceiling(2, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> HttpCeilings.ceiling(0, 0.5));
    }

    @Test
    void aControlThatCannotReachSevenTenthsOfTheBareLoopPutsTheGoalOutOfReach() {
        // 0.5 ms per commit on two cores: at most 4,000 commits/s, against a bare loop of 6,800 (0.59 < 0.7)
        Goal missed = HttpCeilings.withControlCeiling(goal(1250, 6800), 2, 0.5);
        assertEquals(4000.0 / 6800, missed.floor().ratio(), 1e-12);
        assertFalse(missed.met());
        assertTrue(missed.outOfReach());
        assertEquals(HttpCeilings.CONTROL_FLOOR, missed.floor().what());
        assertTrue(missed.toJson().get("floor").get("out_of_reach").booleanValue());
        assertTrue(BenchMarkdown.floor(missed.toJson()).endsWith(", out of reach)"), BenchMarkdown.floor(missed.toJson()));
    }

    @Test
    void aCheapEnoughControlLeavesRoomEvenWhenTheGoalIsMissed() {
        // 0.2 ms per commit on two cores: 10,000 commits/s, 1.47 of the bare loop: the miss is the guarded server's
        Goal missed = HttpCeilings.withControlCeiling(goal(1250, 6800), 2, 0.2);
        assertFalse(missed.met());
        assertFalse(missed.outOfReach());
        assertEquals(10000.0 / 6800, missed.floor().ratio(), 1e-12);
    }

    @Test
    void nodeIsBoundByItsOneJavaScriptThreadOrByEveryCoreWhicheverAllowsFewer() {
        // 1.2 ms on the main thread: at most 833 calls/s, though two cores at 1.5 ms would allow 1,333
        assertEquals(1000 / 1.2, HttpCeilings.nodeCeiling(2, 1.5, 1.2), 1e-9);
        // a process whose other threads cost more than its main thread gains: two cores at 4 ms allow 500 calls/s
        assertEquals(500, HttpCeilings.nodeCeiling(2, 4.0, 1.0), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> HttpCeilings.nodeCeiling(2, 1.5, 0));
    }
}
