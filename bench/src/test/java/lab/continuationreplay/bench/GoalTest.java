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
}
