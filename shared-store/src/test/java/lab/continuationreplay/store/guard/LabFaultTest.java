package lab.continuationreplay.store.guard;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import lab.continuationreplay.store.ledger.CutPoint;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.OperationState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class LabFaultTest {
    @Test
    void absentOrEmptyMeansNoFault() {
        assertEquals(Optional.empty(), LabFault.parse(null));
        assertEquals(Optional.empty(), LabFault.parse(""));
    }

    @Test
    void eachWireNameParses() {
        assertEquals(Optional.of(LabFault.DROP_AFTER_COMMIT), LabFault.parse("drop-after-commit"));
        assertEquals(Optional.of(LabFault.EXIT_AFTER_LEDGER_INSERT), LabFault.parse("exit-after-ledger-insert"));
        assertEquals(Optional.of(LabFault.EXIT_AFTER_ISSUE_INSERT), LabFault.parse("exit-after-issue-insert"));
        assertEquals(Optional.of(LabFault.EXIT_AFTER_PARTIAL_FIRST_COMMIT), LabFault.parse("exit-after-partial-first-commit"));
    }

    @Test
    void wireNamesAndExitStatuses() {
        assertEquals("drop-after-commit", LabFault.DROP_AFTER_COMMIT.wire());
        assertEquals(70, LabFault.DROP_AFTER_COMMIT.exitStatus());
        assertEquals(71, LabFault.EXIT_AFTER_LEDGER_INSERT.exitStatus());
        assertEquals(72, LabFault.EXIT_AFTER_ISSUE_INSERT.exitStatus());
        assertEquals(73, LabFault.EXIT_AFTER_PARTIAL_FIRST_COMMIT.exitStatus());
        assertEquals(CutPoint.AFTER_LEDGER_INSERT.exitStatus(), LabFault.EXIT_AFTER_LEDGER_INSERT.exitStatus());
        assertEquals(CutPoint.AFTER_ISSUE_INSERT.exitStatus(), LabFault.EXIT_AFTER_ISSUE_INSERT.exitStatus());
        assertEquals(CutPoint.AFTER_PARTIAL_FIRST_COMMIT.exitStatus(), LabFault.EXIT_AFTER_PARTIAL_FIRST_COMMIT.exitStatus());
    }

    @EnumSource(LabFault.class)
    @ParameterizedTest
    void wireNameRoundTrips(LabFault fault) {
        assertEquals(Optional.of(fault), LabFault.parse(fault.wire()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"crash", "DROP-AFTER-COMMIT", "drop_after_commit", " drop-after-commit", "after-ledger-insert",
        "DROP_AFTER_COMMIT"})
    void unknownNamesListTheValidOnes(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LabFault.parse(value));
        assertEquals("WIRE_FAULT must be one of [drop-after-commit, exit-after-ledger-insert, exit-after-issue-insert, "
                + "exit-after-partial-first-commit]", e.getMessage());
    }

    @Test
    void hooksDoNothingAtOtherCutPoints() {
        FaultHook ledgerInsert = LabFault.EXIT_AFTER_LEDGER_INSERT.hook();
        assertDoesNotThrow(() -> ledgerInsert.reached(CutPoint.AFTER_ISSUE_INSERT));
        assertDoesNotThrow(() -> ledgerInsert.reached(CutPoint.AFTER_PARTIAL_FIRST_COMMIT));
        FaultHook issueInsert = LabFault.EXIT_AFTER_ISSUE_INSERT.hook();
        assertDoesNotThrow(() -> issueInsert.reached(CutPoint.AFTER_LEDGER_INSERT));
        assertDoesNotThrow(() -> issueInsert.reached(CutPoint.AFTER_PARTIAL_FIRST_COMMIT));
        FaultHook partial = LabFault.EXIT_AFTER_PARTIAL_FIRST_COMMIT.hook();
        assertDoesNotThrow(() -> partial.reached(CutPoint.AFTER_LEDGER_INSERT));
        assertDoesNotThrow(() -> partial.reached(CutPoint.AFTER_ISSUE_INSERT));
    }

    @Test
    void dropAfterCommitHasNoCutPoint() {
        FaultHook drop = LabFault.DROP_AFTER_COMMIT.hook();
        for (CutPoint point : CutPoint.values()) {
            assertDoesNotThrow(() -> drop.reached(point));
        }
    }

    @Test
    void afterCommitIgnoresReplaysAndOtherFaults() {
        GuardedIssueResult replay = new GuardedIssueResult("case-03", 1, "created 1", true, OperationState.APPLIED);
        GuardedIssueResult fresh = new GuardedIssueResult("case-03", 1, "created 1", false, OperationState.APPLIED);
        assertDoesNotThrow(() -> LabFault.DROP_AFTER_COMMIT.afterCommit(replay));
        assertDoesNotThrow(() -> LabFault.EXIT_AFTER_LEDGER_INSERT.afterCommit(fresh));
        assertDoesNotThrow(() -> LabFault.EXIT_AFTER_ISSUE_INSERT.afterCommit(fresh));
        assertDoesNotThrow(() -> LabFault.EXIT_AFTER_PARTIAL_FIRST_COMMIT.afterCommit(fresh));
    }
}
