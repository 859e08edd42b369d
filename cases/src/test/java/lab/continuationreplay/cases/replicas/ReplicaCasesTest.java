package lab.continuationreplay.cases.replicas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.ReplicaCaseId;
import lab.continuationreplay.cases.ServerChoice;
import lab.continuationreplay.cases.ServerSetup;
import org.junit.jupiter.api.Test;

/** The replica cells: each specified once, split within one SDK and across two, and refused outside lab replicas. */
class ReplicaCasesTest {
    @Test
    void theCellsWithinOneSdkAreR1ToR5AndTheCellsAcrossAreX1AndX2() {
        assertEquals(List.of("r1", "r2", "r3", "r4", "r5"), ReplicaCases.cells(true).stream().map(c -> c.id().number()).toList());
        assertEquals(List.of("x1", "x2"), ReplicaCases.cells(false).stream().map(c -> c.id().number()).toList());
        for (ReplicaCaseId id : ReplicaCaseId.values()) {
            CaseSpec spec = ReplicaCases.spec(id);
            assertEquals(id, spec.id());
            assertEquals("case-" + id.number(), id.operationId());
        }
    }

    @Test
    void anUnknownCellIsRefusedByName() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ReplicaCaseId.of("r9"));
        assertTrue(refused.getMessage().contains("r1..r5, x1, x2"), refused.getMessage());
    }

    @Test
    void aCellThatActsOnTheTopologyRefusesToRunAsAMatrixCase() {
        CaseSteps matrixSteps = new CaseSteps() {
            @Override
            public CaseServer spawn(String name, ServerSetup setup, ServerChoice server) {
                throw new AssertionError("the cell must refuse before it starts a server");
            }

            @Override
            public void close(CaseServer server) {}
        };
        for (ReplicaCaseId id : List.of(ReplicaCaseId.CUT_FROM_DATABASE, ReplicaCaseId.DATABASE_KILLED)) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> ReplicaCases.spec(id).script().run(matrixSteps));
            assertTrue(refused.getMessage().contains("only under lab replicas"), refused.getMessage());
        }
    }
}
