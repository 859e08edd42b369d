package lab.continuationreplay.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.servers.ServerKind;
import org.junit.jupiter.api.Test;

/** Which rows of a guard-overhead phase spread wide enough to be played again. */
class UnstableRowsTest {
    @Test
    void onlyTheRowsWhoseRoundsSpreadWiderThanTheBoundArePlayedAgain() {
        GuardOverheadBench.Phase phase = new GuardOverheadBench.Phase(Map.of(),
                Map.of(ServerKind.JAVA, List.of(1.0, 1.1, 1.05), ServerKind.GO, List.of(1.0, 1.5, 1.2)), List.of(),
                Map.of(), Map.of(ServerKind.PYTHON, List.of(0.8, 0.81, 0.99), ServerKind.TYPESCRIPT, List.of(0.9, 0.95, 1.0)));
        Map<String, Double> wide = GuardOverheadBench.unstableRows(phase);
        assertEquals(2, wide.size(), wide.toString());
        assertEquals(0.5 / 1.2, wide.get("go p50"), 1e-12);
        assertEquals(0.19 / 0.81, wide.get("python 16 clients"), 1e-12);
    }

    @Test
    void aRowAtTheBoundIsNotPlayedAgain() {
        // (1.2 - 1.0) / 1.0 = 0.2: at the bound, not above it
        GuardOverheadBench.Phase phase = new GuardOverheadBench.Phase(Map.of(), Map.of(ServerKind.JAVA, List.of(1.0, 1.0, 1.2)),
                List.of(), Map.of(), Map.of());
        assertEquals(Map.of(), GuardOverheadBench.unstableRows(phase));
    }
}
