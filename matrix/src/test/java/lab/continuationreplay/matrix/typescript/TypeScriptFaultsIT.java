package lab.continuationreplay.matrix.typescript;

import static lab.continuationreplay.matrix.typescript.Fixture.arguments;
import static lab.continuationreplay.matrix.typescript.Fixture.continuation;
import static lab.continuationreplay.matrix.typescript.Fixture.firstRound;
import static lab.continuationreplay.matrix.typescript.Fixture.status;
import static lab.continuationreplay.matrix.typescript.Fixture.structured;
import static lab.continuationreplay.matrix.typescript.Fixture.toolError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Lab faults through the TypeScript fixture: drop-after-commit ends the fixture itself (70); the pre-commit and
 * partial cuts end its bridge child (71/72/73), which the fixture reports as a machinery failure and survives.
 */
class TypeScriptFaultsIT {
    @TempDir
    Path dir;

    private Map<String, String> withFault(String fault) {
        Map<String, String> env = Fixture.environment(dir);
        env.put("WIRE_FAULT", fault);
        return env;
    }

    @Test
    void dropAfterCommitExits70WithoutAReplyAndTheEffectIsDurable() throws Exception {
        Path db = Fixture.database(dir);
        ObjectNode args = arguments("case-03", "guarded-03");
        String token;
        try (ServerProcess server = Fixture.start(dir, withFault("drop-after-commit"))) {
            token = firstRound(server, args);
            TransportFailure lost = assertThrows(TransportFailure.class, () -> continuation(server, args, "alpha", token));
            assertTrue(lost.getMessage().startsWith("server closed stdout"), lost.getMessage());
            assertEquals(70, server.awaitExit(Duration.ofSeconds(15)));
        }
        assertEquals(1, FixtureRows.issues(db));
        assertEquals(new FixtureRows.Operation("applied", 1L, "created 1"), FixtureRows.operation(db, "case-03").orElseThrow());

        try (ServerProcess recovery = Fixture.start(dir)) {
            assertEquals("applied", structured(status(recovery, "case-03")).get("state").textValue());
            assertEquals("{\"operationId\":\"case-03\",\"effectId\":1,\"result\":\"created 1\",\"replayed\":true,\"state\":\"applied\"}",
                    structured(continuation(recovery, args, "alpha", token)).toString());
        }
        assertEquals(1, FixtureRows.issues(db));
    }

    @Test
    void dropAfterCommitAnswersAReplayNormally() throws Exception {
        ObjectNode args = arguments("case-03", "guarded-03");
        String token;
        try (ServerProcess server = Fixture.start(dir)) {
            token = firstRound(server, args);
            structured(continuation(server, args, "alpha", token));
        }
        try (ServerProcess server = Fixture.start(dir, withFault("drop-after-commit"))) {
            assertEquals(true, structured(continuation(server, args, "alpha", token)).get("replayed").booleanValue());
            assertTrue(server.isAlive());
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"exit-after-ledger-insert, 71", "exit-after-issue-insert, 72"})
    void aPrecommitCutFailsTheCallLeavesNoRowAndTheFixtureKeepsServing(String fault, int status) throws Exception {
        Path db = Fixture.database(dir);
        ObjectNode args = arguments("case-07", "guarded-07");
        String token;
        try (ServerProcess server = Fixture.start(dir, withFault(fault))) {
            token = firstRound(server, args);
            String failure = toolError(continuation(server, args, "alpha", token));
            assertTrue(failure.startsWith("bridge machinery failure: " + status + "; "), failure);
            assertEquals(0, FixtureRows.issues(db));
            assertEquals(0, FixtureRows.operations(db));
            assertTrue(server.isAlive());
            // a new bridge child answers; the next operation (partial mode has no such cut point) commits
            assertEquals("unknown", structured(status(server, "case-07")).get("state").textValue());
            ObjectNode next = arguments("case-07b", "guarded-07b").put("mode", "partial");
            assertEquals("partial 1; watcher failed; rollback failed",
                    structured(continuation(server, next, "beta", firstRound(server, next))).get("result").textValue());
        }
        // without the fault the interrupted continuation commits, once
        try (ServerProcess server = Fixture.start(dir)) {
            assertEquals("created 2", structured(continuation(server, args, "alpha", token)).get("result").textValue());
            assertEquals(true, structured(continuation(server, args, "alpha", token)).get("replayed").booleanValue());
        }
        assertEquals(2, FixtureRows.issues(db));
        assertEquals(2, FixtureRows.operations(db));
    }

    @Test
    void thePartialCutLeavesExactlyTheDurableFirstEffect() throws Exception {
        Path db = Fixture.database(dir);
        ObjectNode args = arguments("case-12", "guarded-12").put("mode", "partial");
        try (ServerProcess server = Fixture.start(dir, withFault("exit-after-partial-first-commit"))) {
            String token = firstRound(server, args);
            String failure = toolError(continuation(server, args, "alpha", token));
            assertTrue(failure.startsWith("bridge machinery failure: 73; "), failure);
            assertEquals(1, FixtureRows.issues(db));
            assertEquals(1, FixtureRows.operations(db));
            assertEquals(new FixtureRows.Operation("in_progress", 1L, null), FixtureRows.operation(db, "case-12").orElseThrow());
            // the read-back does not count an unfinished operation as applied, and a retry cannot start it again
            var observed = structured(status(server, "case-12"));
            assertEquals("unknown", observed.get("state").textValue());
            assertEquals("operation ledger state is 'in_progress'", observed.get("detail").textValue());
            assertEquals("operation_in_progress", toolError(continuation(server, args, "alpha", token)));
        }
        assertEquals(1, FixtureRows.issues(db));
    }
}
