package lab.continuationreplay.conformance.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RequirementsTest {
    /** The shape of {@code conformance list --requirements 2026-07-28} in 0.2.0-alpha.12, shortened. */
    static final String LISTING = """
            Required for 2026-07-28 (69 scenarios, frozen; run at the 2026-07-28 wire):

            Server scenarios (test against a server):
              - server-stateless
              - tools-list
              - input-required-result-request-state

            Client scenarios (test against a client):
              - tools_call
              - auth/metadata-default
              - sep-2322-client-request-state

            Run and reported, but never scored:
              extension (2):
                - auth/dpop [client]
                - tasks-lifecycle [server]
              pending (1):
                - json-schema-2020-12 [server]
            """;

    @Test
    void theScoredScenariosOfEachSideAndTheUnscoredOnesWithTheirReason() {
        Requirements requirements = Requirements.parse("2026-07-28", LISTING);
        assertEquals(List.of("server-stateless", "tools-list", "input-required-result-request-state"), requirements.server());
        assertEquals(List.of("tools_call", "auth/metadata-default", "sep-2322-client-request-state"), requirements.client());
        assertEquals(List.of(new Requirements.Unscored("auth/dpop", Side.CLIENT, "extension"),
                new Requirements.Unscored("tasks-lifecycle", Side.SERVER, "extension"),
                new Requirements.Unscored("json-schema-2020-12", Side.SERVER, "pending")), requirements.unscored());
        assertTrue(requirements.isScored(Side.SERVER, "tools-list"));
        assertFalse(requirements.isScored(Side.CLIENT, "tools-list"), "a server scenario is not a client one");
        assertFalse(requirements.isScored(Side.SERVER, "tasks-lifecycle"), "run, but never scored");
    }

    @Test
    void aLineOfAnotherShapeIsRefusedWithItsNumberNotHalfRead() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Requirements.parse("2026-07-28", LISTING.replace("  - tools-list", "  * tools-list")));
        assertEquals("the suite's list of requirements has a line this lab cannot read (line 5):   * tools-list", refused.getMessage());
    }

    @Test
    void aListingWithoutServerScenariosIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Requirements.parse("2026-07-28", "Client scenarios (test against a client):\n  - tools_call\n"));
        assertEquals("the suite listed no server scenarios for 2026-07-28", refused.getMessage());
    }
}
