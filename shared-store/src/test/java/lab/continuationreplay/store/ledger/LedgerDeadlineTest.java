package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.BACKEND;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.id;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.rows;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.tableCounts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Seed spec §5.4: validate_timing, inclusive-expired deadlines, tombstones. */
class LedgerDeadlineTest extends FreshLedger {
    private static final Deadlines WINDOW = Deadlines.of(100, 110, 120);
    private static final String AUTHORITY = "operation authority has expired";
    private static final String RETENTION = "operation replay retention has expired";

    private static final OptionalDouble NO_CLOCK = OptionalDouble.empty();

    private ApplyResult apply(String op, Deadlines deadlines, double now) throws Exception {
        return apply(op, deadlines, OptionalDouble.of(now));
    }

    private ApplyResult apply(String op, Deadlines deadlines, OptionalDouble now) throws Exception {
        return ledger.applyIssueOnce(new ApplyRequest(id(op), "fp", "T", "B", deadlines, now), FaultHook.NONE);
    }

    private ApplyResult applyPartial(String op, Deadlines deadlines, double now) throws Exception {
        return applyPartial(op, deadlines, OptionalDouble.of(now));
    }

    private ApplyResult applyPartial(String op, Deadlines deadlines, OptionalDouble now) throws Exception {
        return ledger.applyPartialIssueOnce(new ApplyRequest(id(op), "fp", "T", "B", deadlines, now),
                PartialSteps.injectedFailures(), FaultHook.NONE);
    }

    private <T extends Throwable> void assertRefusedWithoutRows(Class<T> type, String message, Executable call)
            throws Exception {
        List<Long> before = tableCounts(location);
        T e = assertThrows(type, call);
        assertEquals(message, e.getMessage());
        assertEquals(before, tableCounts(location));
    }

    // ---- new operations -------------------------------------------------------------------------------------------

    @Test
    void newOperationAtAuthorityDeadlineIsExpiredAndWritesNothing() throws Exception {
        OperationAuthorityExpired e = assertThrows(OperationAuthorityExpired.class, () -> apply("op", WINDOW, 110.0));
        assertEquals(AUTHORITY, e.getMessage());
        assertEquals("operation_authority_expired", e.wireCode());
        assertEquals(List.of(0L, 0L, 0L, 0L, 0L), tableCounts(location));
        assertEquals(0, queries().operationCount());
        assertEquals(0, queries().issueCount());
    }

    @Test
    void newOperationJustBeforeAuthorityDeadlineApplies() throws Exception {
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED), apply("op", WINDOW, 109.999));
    }

    @Test
    void newOperationAtIssuedAtApplies() throws Exception {
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED), apply("op", WINDOW, 100.0));
    }

    @Test
    void newOperationAtRetentionDeadlineIsRetentionExpired() throws Exception {
        Deadlines longAuthority = Deadlines.of(100, 200, 120);
        assertRefusedWithoutRows(OperationRetentionExpired.class, RETENTION, () -> apply("op", longAuthority, 120.0));
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED), apply("op", longAuthority, 119.0));
    }

    @Test
    void newOperationPastBothDeadlinesReportsAuthorityFirst() throws Exception {
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY, () -> apply("op", WINDOW, 130.0));
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY, () -> applyPartial("op", WINDOW, 130.0));
    }

    @Test
    void partialNewOperationHonoursTheSameInclusiveDeadlines() throws Exception {
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY, () -> applyPartial("op", WINDOW, 110.0));
        assertRefusedWithoutRows(OperationRetentionExpired.class, RETENTION,
                () -> applyPartial("op", Deadlines.of(100, 200, 120), 120.0));
        assertEquals("partial 1; watcher failed; rollback failed", applyPartial("op", WINDOW, 109.0).result());
    }

    // ---- replays --------------------------------------------------------------------------------------------------

    @Test
    void replayBeforeAuthorityDeadlineSucceedsAndAtItIsExpired() throws Exception {
        apply("op", WINDOW, 100.0);
        assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED), apply("op", WINDOW, 109.0));
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY, () -> apply("op", WINDOW, 110.0));
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY, () -> apply("op", WINDOW, 110.5));
    }

    @Test
    void replayUsesStoredDeadlinesNotTheRequestedOnes() throws Exception {
        apply("op", WINDOW, 100.0);
        // asking with a longer window does not extend the stored one
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY,
                () -> apply("op", Deadlines.of(100, 500, 600), 110.0));
        // and a bad request shape is irrelevant on replay: the stored row decides
        assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED),
                apply("op", new Deadlines(Double.NaN, Double.NaN, Double.NaN), 105.0));
    }

    @Test
    void replayAtRetentionDeadlineWithLiveAuthorityIsRetentionExpired() throws Exception {
        Deadlines longAuthority = Deadlines.of(100, 200, 120);
        apply("op", longAuthority, 100.0);
        assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED), apply("op", longAuthority, 119.0));
        OperationRetentionExpired e = assertThrows(OperationRetentionExpired.class, () -> apply("op", longAuthority, 120.0));
        assertEquals(RETENTION, e.getMessage());
        assertEquals("operation_retention_expired", e.wireCode());
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
    }

    @Test
    void replayWithBothDeadlinesPassedReportsAuthorityFirst() throws Exception {
        apply("op", WINDOW, 100.0);
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY, () -> apply("op", WINDOW, 120.0));
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY, () -> apply("op", WINDOW, 5000.0));
    }

    @Test
    void partialReplayChecksStoredDeadlines() throws Exception {
        applyPartial("op", WINDOW, 100.0);
        assertEquals(new ApplyResult(1, "partial 1; watcher failed; rollback failed", true, OperationState.PARTIAL),
                applyPartial("op", WINDOW, 109.0));
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY, () -> applyPartial("op", WINDOW, 110.0));
        // the atomic entry point replays a partial row with the same deadline rules
        assertEquals(new ApplyResult(1, "partial 1; watcher failed; rollback failed", true, OperationState.PARTIAL),
                apply("op", WINDOW, 109.0));
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY, () -> apply("op", WINDOW, 110.0));
    }

    @Test
    void expiredRowsAreTombstonesNotDeleted() throws Exception {
        apply("op", WINDOW, 100.0);
        List<Map<String, Object>> before = rows(location, "SELECT * FROM operations");
        assertThrows(OperationAuthorityExpired.class, () -> apply("op", WINDOW, 110.0));
        assertThrows(OperationAuthorityExpired.class, () -> apply("op", WINDOW, 121.0));
        assertEquals(1, queries().operationCount());
        assertEquals(1, queries().issueCount());
        assertEquals(before, rows(location, "SELECT * FROM operations"));
        assertEquals(List.of(new Issue(1, "T", "B")), queries().issuesWithTitle("T"));
        OperationRecord tombstone = ledger.operationRecord(id("op")).orElseThrow();
        assertEquals(OperationState.APPLIED, tombstone.state());
        assertEquals(1L, tombstone.effectId());
        // a fresh issuance reusing the old id is a conflict, not a new operation
        OperationConflict conflict = assertThrows(OperationConflict.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(id("op"), "fp-new", "T", "B", Deadlines.of(200, 210, 220),
                200.0), FaultHook.NONE));
        assertEquals("operation_id is already bound to a different principal, backend, or request fingerprint",
                conflict.getMessage());
        assertEquals(1, queries().operationCount());
        assertEquals(1, queries().issueCount());
    }

    // ---- the clock ------------------------------------------------------------------------------------------------

    @Test
    void boundedNewOperationRequiresNow() throws Exception {
        String message = "now_epoch is required for a bounded operation";
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> apply("op", WINDOW, NO_CLOCK));
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> apply("op", new Deadlines(100.0, null,
                null), NO_CLOCK));
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> apply("op", new Deadlines(null, 110.0,
                null), NO_CLOCK));
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> apply("op", new Deadlines(null, null,
                120.0), NO_CLOCK));
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> applyPartial("op", WINDOW, NO_CLOCK));
    }

    @Test
    void replayingABoundedRowRequiresNow() throws Exception {
        apply("op", WINDOW, 100.0);
        String message = "now_epoch is required to replay a bounded operation";
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> apply("op", WINDOW, NO_CLOCK));
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> apply("op", Deadlines.UNBOUNDED,
                NO_CLOCK));
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> applyPartial("op", WINDOW, NO_CLOCK));
    }

    @Test
    void replayingWithANonFiniteClockIsRefusedNotReplayed() throws Exception {
        apply("op", WINDOW, 100.0);
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertRefusedWithoutRows(IllegalArgumentException.class, "now_epoch must be finite", () -> apply("op", WINDOW, bad));
        }
    }

    @Test
    void rowWithOnlyIssuedAtIsNotBoundedForReplay() throws Exception {
        // issued_at alone makes the request bounded (now required) but the stored row has no deadline to enforce
        apply("op", new Deadlines(100.0, null, null), 100.0);
        assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED), apply("op", Deadlines.UNBOUNDED,
                NO_CLOCK));
    }

    @Test
    void unboundedWithoutNowWorks() throws Exception {
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED), apply("op", Deadlines.UNBOUNDED,
                NO_CLOCK));
        assertEquals(0.0, ledger.operationRecord(id("op")).orElseThrow().issuedAt());
        assertEquals(List.of(Map.of("issued_at", 0.0)), rows(location, "SELECT issued_at FROM operations"));
    }

    // ---- validate_timing ------------------------------------------------------------------------------------------

    @Test
    void nowBeforeIssuedAtIsABadRequest() throws Exception {
        assertRefusedWithoutRows(IllegalArgumentException.class, "now_epoch cannot precede issued_at",
                () -> apply("op", WINDOW, 99.0));
        assertRefusedWithoutRows(IllegalArgumentException.class, "now_epoch cannot precede issued_at",
                () -> apply("op", WINDOW, 99.9999));
        assertRefusedWithoutRows(IllegalArgumentException.class, "now_epoch cannot precede issued_at",
                () -> applyPartial("op", WINDOW, 99.0));
    }

    @Test
    void authorityMustFollowIssuedAt() throws Exception {
        String message = "authority_expires_at must follow issued_at";
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> apply("op", Deadlines.of(100, 100, 120), 100.0));
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> apply("op", Deadlines.of(100, 90, 120), 100.0));
        // authority is checked before replay when both are wrong
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> apply("op", Deadlines.of(100, 100, 100), 100.0));
    }

    @Test
    void replayMustFollowIssuedAt() throws Exception {
        String message = "replay_expires_at must follow issued_at";
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> apply("op", Deadlines.of(100, 110, 100), 100.0));
        assertRefusedWithoutRows(IllegalArgumentException.class, message, () -> apply("op", Deadlines.of(100, 110, 50), 100.0));
        assertRefusedWithoutRows(IllegalArgumentException.class, message,
                () -> apply("op", new Deadlines(100.0, null, 100.0), 100.0));
    }

    @Test
    void replayMayPrecedeAuthority() throws Exception {
        // the two deadlines are independent; only their relation to issued_at is validated
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED), apply("op", Deadlines.of(100, 200, 101), 100.0));
    }

    @Test
    void withoutIssuedAtDeadlinesAreNotComparedToIt() throws Exception {
        // no issued_at: only the expiry rule applies (authority 50 at now 40 is live)
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED), apply("op", new Deadlines(null, 50.0, 60.0), 40.0));
    }

    @Test
    void oneRequestBothMalformedAndExpiredGetsTheTimingRefusalAtomicallyAndTheExpiryRefusalPartially() throws Exception {
        // authority == issued_at (malformed, §5.4) and now == authority (expired, inclusive): the mode decides which
        // rule answers, as DeadlineRules.admitNewAtomic / admitNewPartial state (seed §5.2 vs §5.3)
        Deadlines both = Deadlines.of(100, 100, 120);
        assertRefusedWithoutRows(IllegalArgumentException.class, "authority_expires_at must follow issued_at",
                () -> apply("op", both, 100.0));
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY, () -> applyPartial("op", both, 100.0));
        // a clock before every deadline leaves only the timing rule violated: both modes then agree
        assertRefusedWithoutRows(IllegalArgumentException.class, "now_epoch cannot precede issued_at",
                () -> apply("op", both, 99.0));
        assertRefusedWithoutRows(IllegalArgumentException.class, "now_epoch cannot precede issued_at",
                () -> applyPartial("op", both, 99.0));
    }

    @Test
    void atomicModeValidatesTimingBeforeExpiry() throws Exception {
        // authority == issued is both malformed and (at now == issued) expired: atomic mode reports the shape error
        assertRefusedWithoutRows(IllegalArgumentException.class, "authority_expires_at must follow issued_at",
                () -> apply("op", Deadlines.of(100, 100, 120), 100.0));
        // now precedes issued and authority (50) has passed at now 60: still the shape error
        assertRefusedWithoutRows(IllegalArgumentException.class, "now_epoch cannot precede issued_at",
                () -> apply("op", Deadlines.of(100, 50, 120), 60.0));
        // retention (100 == issued) has passed at now 100: shape error
        assertRefusedWithoutRows(IllegalArgumentException.class, "replay_expires_at must follow issued_at",
                () -> apply("op", Deadlines.of(100, 200, 100), 100.0));
    }

    @Test
    void partialModeChecksExpiryBeforeTiming() throws Exception {
        // spec §5.3: "check_new_deadlines(...) ; validate_timing(...)  # note: reverse order vs 5.2"
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY,
                () -> applyPartial("op", Deadlines.of(100, 100, 120), 100.0));
        assertRefusedWithoutRows(OperationRetentionExpired.class, RETENTION,
                () -> applyPartial("op", Deadlines.of(100, 200, 100), 100.0));
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY,
                () -> applyPartial("op", Deadlines.of(100, 50, 120), 60.0));
        // nothing expired yet: the shape error surfaces
        assertRefusedWithoutRows(IllegalArgumentException.class, "now_epoch cannot precede issued_at",
                () -> applyPartial("op", Deadlines.of(100, 90, 120), 80.0));
    }

    @Test
    void nonFiniteValuesAreRejectedByName() throws Exception {
        double[] bad = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (double value : bad) {
            assertRefusedWithoutRows(IllegalArgumentException.class, "issued_at must be finite",
                    () -> apply("op", new Deadlines(value, 110.0, 120.0), 100.0));
            assertRefusedWithoutRows(IllegalArgumentException.class, "authority_expires_at must be finite",
                    () -> apply("op", new Deadlines(100.0, value, 120.0), 100.0));
            assertRefusedWithoutRows(IllegalArgumentException.class, "replay_expires_at must be finite",
                    () -> apply("op", new Deadlines(100.0, 110.0, value), 100.0));
            assertRefusedWithoutRows(IllegalArgumentException.class, "now_epoch must be finite",
                    () -> apply("op", WINDOW, value));
            assertRefusedWithoutRows(IllegalArgumentException.class, "now_epoch must be finite",
                    () -> apply("op", Deadlines.UNBOUNDED, value));
        }
        // names are checked in order issued, authority, replay, now
        assertRefusedWithoutRows(IllegalArgumentException.class, "issued_at must be finite",
                () -> apply("op", new Deadlines(Double.NaN, Double.NaN, Double.NaN), Double.NaN));
        assertRefusedWithoutRows(IllegalArgumentException.class, "authority_expires_at must be finite",
                () -> apply("op", new Deadlines(100.0, Double.NaN, Double.NaN), Double.NaN));
        assertRefusedWithoutRows(IllegalArgumentException.class, "replay_expires_at must be finite",
                () -> apply("op", new Deadlines(100.0, 110.0, Double.NaN), Double.NaN));
        // finiteness comes before the "now required" rule
        assertRefusedWithoutRows(IllegalArgumentException.class, "authority_expires_at must be finite",
                () -> apply("op", new Deadlines(null, Double.POSITIVE_INFINITY, null), NO_CLOCK));
    }

    @Test
    void partialModeRejectsNonFiniteValues() throws Exception {
        assertRefusedWithoutRows(IllegalArgumentException.class, "issued_at must be finite",
                () -> applyPartial("op", new Deadlines(Double.NaN, 110.0, 120.0), 100.0));
        assertRefusedWithoutRows(IllegalArgumentException.class, "now_epoch must be finite",
                () -> applyPartial("op", WINDOW, Double.NaN));
    }

    @Test
    void deadlinesOfConvertsToDoubles() {
        Deadlines deadlines = Deadlines.of(1790035200L, 1790035260L, 1790038800L);
        assertEquals(new Deadlines(1790035200.0, 1790035260.0, 1790038800.0), deadlines);
        assertEquals(true, deadlines.bounded());
        assertEquals(false, Deadlines.UNBOUNDED.bounded());
        assertEquals(new Deadlines(null, null, null), Deadlines.UNBOUNDED);
    }

    @Test
    void largeEpochDeadlinesAreStoredExactlyAsReal() throws Exception {
        apply("op", Deadlines.of(1790035200L, 1790035260L, 1790038800L), 1790035200.0);
        assertEquals(List.of(Map.of("issued_at", 1790035200.0, "authority_expires_at", 1790035260.0,
                "replay_expires_at", 1790038800.0)),
                rows(location, "SELECT issued_at, authority_expires_at, replay_expires_at FROM operations"));
        assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED),
                apply("op", Deadlines.of(1790035200L, 1790035260L, 1790038800L), 1790035259.0));
        assertRefusedWithoutRows(OperationAuthorityExpired.class, AUTHORITY,
                () -> apply("op", Deadlines.of(1790035200L, 1790035260L, 1790038800L), 1790035260.0));
    }
}
