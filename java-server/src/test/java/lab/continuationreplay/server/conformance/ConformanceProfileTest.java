package lab.continuationreplay.server.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConformanceProfileTest {
    @Test
    void theStateTtlDefaultsToSixtySeconds() {
        assertEquals(60, ConformanceProfile.fromEnvironment(Map.of()).stateTtlSeconds());
    }

    @Test
    void aPositiveWholeNumberOfSecondsIsTaken() {
        assertEquals(1, ConformanceProfile.fromEnvironment(Map.of(ConformanceProfile.STATE_TTL, "1")).stateTtlSeconds());
        assertEquals(86400, ConformanceProfile.fromEnvironment(Map.of(ConformanceProfile.STATE_TTL, "86400")).stateTtlSeconds());
    }

    @Test
    void anythingElseIsRefusedNamingTheVariable() {
        for (String bad : List.of("", "0", "000", "-1", "+5", " 5", "5 ", "1.5", "1e3", "abc", "9999999999", "٣")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> ConformanceProfile.fromEnvironment(Map.of(ConformanceProfile.STATE_TTL, bad)), bad);
            assertEquals("WIRE_CONFORMANCE_STATE_TTL must be a positive integer (seconds)", refused.getMessage());
        }
    }
}
