package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The request both apply modes take; the clock reading is explicit, and its absence is a value, not a null. */
class ApplyRequestTest {
    @Test
    void atCarriesTheInjectedReading() {
        ApplyRequest request = ApplyRequest.at(id("op"), "fp", "T", "B", Deadlines.of(100, 110, 120), 105);
        assertEquals(new ApplyRequest(id("op"), "fp", "T", "B", Deadlines.of(100, 110, 120), OptionalDouble.of(105.0)),
                request);
    }

    @Test
    void unboundedHasNeitherDeadlinesNorAClock() {
        assertEquals(new ApplyRequest(id("op"), "fp", "T", "B", Deadlines.UNBOUNDED, OptionalDouble.empty()),
                ApplyRequest.unbounded(id("op"), "fp", "T", "B"));
    }

    @Test
    void aMissingReadingMustBeSaidNotLeftNull() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> new ApplyRequest(id("op"), "fp", "T", "B", Deadlines.UNBOUNDED, null));
        assertEquals("now: use OptionalDouble.empty() for a request without a clock", e.getMessage());
        assertThrows(NullPointerException.class, () -> new ApplyRequest(null, "fp", "T", "B", Deadlines.UNBOUNDED,
                OptionalDouble.empty()));
        assertThrows(NullPointerException.class, () -> new ApplyRequest(id("op"), "fp", "T", "B", null,
                OptionalDouble.empty()));
    }
}
