package lab.continuationreplay.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerQueries;
import lab.continuationreplay.store.ledger.OperationRecord;
import lab.continuationreplay.store.ledger.OperationState;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** WIRE_FAULT in the bridge: the process halts at the cut point with the fault's status and no reply. */
class BridgeFaultIT {
    @TempDir
    Path dir;

    private Path database() {
        return dir.resolve("store.sqlite3");
    }

    private BridgeProcess start(String fault) throws Exception {
        Map<String, String> env = BridgeProcess.environment(database());
        env.put("WIRE_FAULT", fault);
        return BridgeProcess.start(env);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"exit-after-ledger-insert, 71", "exit-after-issue-insert, 72"})
    void aPrecommitCutLeavesNoRows(String fault, int status) throws Exception {
        try (BridgeProcess bridge = start(fault)) {
            bridge.send(Requests.apply("case-07", "guarded-07", "atomic", "alpha"));
            assertNull(bridge.readLine());
            assertEquals(status, bridge.awaitExit());
        }
        try (IssueLedger ledger = IssueLedger.open(database(), Requests.BACKEND)) {
            assertEquals(0, new LedgerQueries(ledger).issueCount());
            assertEquals(0, new LedgerQueries(ledger).operationCount());
        }
        // the same call to a healthy bridge then commits once
        try (BridgeProcess healthy = BridgeProcess.start(BridgeProcess.environment(database()))) {
            assertEquals(false, ExactJson.parse(healthy.call(Requests.apply("case-07", "guarded-07", "atomic", "alpha")))
                    .at("/result/replayed").booleanValue());
        }
    }

    @Test
    void statusCallsDoNotReachACutPoint() throws Exception {
        try (BridgeProcess bridge = start("exit-after-ledger-insert")) {
            assertEquals("unknown", ExactJson.parse(bridge.call(Requests.status("case-07"))).at("/result/state").textValue());
            bridge.closeInput();
            assertEquals(0, bridge.awaitExit());
        }
    }

    @Test
    void thePartialCutLeavesExactlyTheDurableFirstEffect() throws Exception {
        try (BridgeProcess bridge = start("exit-after-partial-first-commit")) {
            bridge.send(Requests.apply("case-12", "guarded-12", "partial", "alpha"));
            assertNull(bridge.readLine());
            assertEquals(73, bridge.awaitExit());
        }
        try (IssueLedger ledger = IssueLedger.open(database(), Requests.BACKEND)) {
            assertEquals(1, new LedgerQueries(ledger).issueCount());
            assertEquals(1, new LedgerQueries(ledger).operationCount());
            OperationRecord record = ledger.operationRecord(new OperationIdentity("case-12", "alice", Requests.BACKEND)).orElseThrow();
            assertEquals(OperationState.IN_PROGRESS, record.state());
            assertEquals(1L, record.effectId());
            assertTrue(new LedgerQueries(ledger).operationEvents("case-12").isEmpty());
        }
    }

    @Test
    void atomicModeIgnoresThePartialCut() throws Exception {
        try (BridgeProcess bridge = start("exit-after-partial-first-commit")) {
            assertEquals("created 1", ExactJson.parse(bridge.call(Requests.apply("case-01", "t", "atomic", "a")))
                    .at("/result/result").textValue());
        }
    }

    @Test
    void dropAfterCommitIsAcceptedAndLeftToTheServer() throws Exception {
        try (BridgeProcess bridge = start("drop-after-commit")) {
            assertEquals(false, ExactJson.parse(bridge.call(Requests.apply("case-03", "t", "atomic", "a")))
                    .at("/result/replayed").booleanValue());
            bridge.closeInput();
            assertEquals(0, bridge.awaitExit());
        }
    }
}
