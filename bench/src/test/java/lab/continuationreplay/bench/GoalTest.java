package lab.continuationreplay.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class GoalTest {
    @Test
    void atMostIsMetAtAndBelowTheBound() {
        assertTrue(Goal.atMost("g", "s", "f", 5, "b", 4, "ms", 1.25).met());
        assertFalse(Goal.atMost("g", "s", "f", 5.1, "b", 4, "ms", 1.25).met());
        assertEquals(1.275, Goal.atMost("g", "s", "f", 5.1, "b", 4, "ms", 1.25).ratio(), 1e-12);
    }

    @Test
    void atLeastAndEqual() {
        assertTrue(Goal.atLeast("g", "s", "f", 700, "b", 1000, "commits/s", 0.7).met());
        assertFalse(Goal.atLeast("g", "s", "f", 699, "b", 1000, "commits/s", 0.7).met());
        assertTrue(Goal.equal("g", "s", "rows", 1, "one", 1, "rows", 1).met());
        assertFalse(Goal.equal("g", "s", "rows", 2, "one", 1, "rows", 1).met());
    }

    @Test
    void aZeroBaselineHasNoRatio() {
        assertThrows(IllegalArgumentException.class, () -> Goal.atMost("g", "s", "f", 1, "b", 0, "ms", 1));
        assertThrows(IllegalArgumentException.class, () -> Goal.atMost("g", "s", "f", Double.NaN, "b", 1, "ms", 1));
    }

    @Test
    void jsonCarriesBothSidesTheRatioAndTheVerdict() {
        ObjectNode json = Goal.atMost("guard", "guarded/unguarded <= 1.25", "guarded p50", 3.0, "unguarded p50", 2.0, "ms", 1.25).toJson();
        assertEquals(3.0, json.get("figure").doubleValue());
        assertEquals(2.0, json.get("baseline").doubleValue());
        assertEquals(1.5, json.get("ratio").doubleValue());
        assertEquals("<=", json.get("comparison").textValue());
        assertEquals(1.25, json.get("bound").doubleValue());
        assertFalse(json.get("met").booleanValue());
    }

    @Test
    void anInterleavedGoalIsJudgedByItsMedianRoundNotByThePooledFigures() {
        // pooled p50s say 1.5, but round by round the guarded series was never more than 1.2x the other
        Goal goal = Goal.atMost("guard", "s", "guarded p50", 3.0, "unguarded p50", 2.0, "ms", 1.25)
                .withRounds(java.util.List.of(1.10, 1.20, 1.15, 1.12, 1.18));
        assertEquals(1.15, goal.ratio(), 1e-12);
        assertTrue(goal.met());
        assertEquals((1.20 - 1.10) / 1.15, goal.spread(), 1e-12);
        assertFalse(goal.unstable());
        ObjectNode json = goal.toJson();
        assertEquals(1.15, json.get("ratio").doubleValue());
        assertEquals(5, json.get("rounds").size());
        assertFalse(json.get("unstable").booleanValue());
        assertEquals(1.5, Goal.atMost("g", "s", "f", 3.0, "b", 2.0, "ms", 1.25).ratio(), 1e-12, "without rounds: figure / baseline");
    }

    @Test
    void roundsSpreadingMoreThanAFifthAroundTheirMedianAreUnstableAndAnEvenCountTakesTheMiddlePair() {
        Goal goal = Goal.atMost("g", "s", "f", 1, "b", 1, "ms", 1.25).withRounds(java.util.List.of(1.0, 1.3, 1.1, 1.2));
        assertEquals(1.15, goal.ratio(), 1e-12);
        assertTrue(goal.unstable(), "spread " + goal.spread());
        assertTrue(BenchMarkdown.rounds(goal.toJson()).endsWith("spread 26 %, **unstable**)"), BenchMarkdown.rounds(goal.toJson()));
        assertThrows(IllegalArgumentException.class, () -> Goal.atMost("g", "s", "f", 1, "b", 1, "ms", 1).withRounds(java.util.List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> Goal.atMost("g", "s", "f", 1, "b", 1, "ms", 1).withRounds(java.util.List.of(1.0, Double.POSITIVE_INFINITY)));
    }

    @Test
    void aFloorBeyondTheBoundPutsAMissedGoalOutOfReach() {
        Goal atMost = Goal.atMost("g", "s", "f", 8, "b", 1, "us/op", 3);
        assertFalse(atMost.outOfReach(), "no floor, no claim");
        assertTrue(atMost.withFloor("stringify + hash", 5.2).outOfReach());
        assertFalse(atMost.withFloor("stringify + hash", 2.9).outOfReach(), "a floor under the bound leaves room");
        assertFalse(atMost.withFloor("stringify + hash", 3).outOfReach(), "a floor on the bound can still be met");
        Goal atLeast = Goal.atLeast("g", "s", "f", 1, "b", 10, "commits/s", 0.7);
        assertTrue(atLeast.withFloor("ceiling", 0.5).outOfReach());
        assertFalse(atLeast.withFloor("ceiling", 0.9).outOfReach());
        assertFalse(Goal.equal("g", "s", "rows", 2, "one", 1, "rows", 1).withFloor("x", 2).outOfReach());
    }

    @Test
    void theFloorSurvivesRoundsAndReachesTheJson() {
        Goal goal = Goal.atMost("g", "s", "f", 8, "b", 1, "us/op", 3).withFloor("stringify + hash", 5.2)
                .withRounds(java.util.List.of(7.0, 8.0, 9.0));
        assertEquals(5.2, goal.floor().ratio());
        ObjectNode floor = (ObjectNode) goal.toJson().get("floor");
        assertEquals("stringify + hash", floor.get("what").textValue());
        assertEquals(5.2, floor.get("ratio").doubleValue());
        assertTrue(floor.get("out_of_reach").booleanValue());
        assertFalse(Goal.atMost("g", "s", "f", 1, "b", 1, "ms", 2).toJson().has("floor"));
    }

    @Test
    void aFloorMustBeARatio() {
        Goal goal = Goal.atMost("g", "s", "f", 8, "b", 1, "us/op", 3);
        assertThrows(IllegalArgumentException.class, () -> goal.withFloor("x", Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> goal.withFloor("x", 0));
        assertThrows(IllegalArgumentException.class, () -> goal.withFloor("x", Double.POSITIVE_INFINITY));
        assertThrows(NullPointerException.class, () -> goal.withFloor(null, 2));
    }
}
