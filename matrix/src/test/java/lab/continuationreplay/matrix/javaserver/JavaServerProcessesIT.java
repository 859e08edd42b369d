package lab.continuationreplay.matrix.javaserver;

import static lab.continuationreplay.matrix.javaserver.JavaGuardedServerIT.assertError;
import static lab.continuationreplay.matrix.javaserver.JavaGuardedServerIT.assertFrozenStateError;
import static lab.continuationreplay.matrix.javaserver.JavaGuardedServerIT.status;
import static lab.continuationreplay.matrix.javaserver.Servers.arguments;
import static lab.continuationreplay.matrix.javaserver.Servers.continuation;
import static lab.continuationreplay.matrix.javaserver.Servers.firstRound;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Scenarios that need more than one server process: principals, clocks, faults, the control, a dead server. */
class JavaServerProcessesIT {
    @TempDir
    Path dir;

    private WireSettings alice() {
        return WireSettings.matrix(dir.resolve("store.sqlite3"), "alice");
    }

    @Test
    void theTokenIsBoundToThePrincipalAndTheReadBackToo() throws Exception {
        ObjectNode call = arguments("case-06", "guarded-06");
        String aliceToken;
        try (ServerProcess alice = Servers.start(ServerKind.JAVA, alice(), dir)) {
            aliceToken = firstRound(alice, call);
            continuation(alice, call, "alpha", aliceToken);
        }
        try (ServerProcess bob = Servers.start(ServerKind.JAVA, alice().as("bob"), dir)) {
            assertFrozenStateError(continuation(bob, call, "alpha", aliceToken));
            assertError(continuation(bob, call, "alpha", firstRound(bob, call)), -32602, "operation_conflict");
            JsonNode bobsView = status(bob, "case-06");
            assertEquals("unknown", bobsView.path("state").textValue());
            assertEquals("bob", bobsView.path("principal").textValue());
        }
        assertEquals(1, StoreRows.count(alice().database(), "issues"));
    }

    @Test
    void afterAuthorityExpiryTheWriteIsRefusedAndTheReadBackStillWorks() throws Exception {
        ObjectNode call = arguments("case-07", "guarded-07");
        String token;
        try (ServerProcess now = Servers.start(ServerKind.JAVA, alice().withTtls(60, 360, 600), dir)) {
            token = firstRound(now, call);
            continuation(now, call, "alpha", token);
        }
        try (ServerProcess later = Servers.start(ServerKind.JAVA, alice().withTtls(60, 360, 600).at(WireSettings.T0 + 120), dir)) {
            assertError(continuation(later, call, "alpha", token), -32602, "operation_authority_expired");
            JsonNode status = status(later, "case-07");
            assertEquals("applied", status.path("state").textValue());
            assertEquals("2026-09-22T00:02:00+00:00", status.path("observedAt").textValue());
        }
        try (ServerProcess expired = Servers.start(ServerKind.JAVA, alice().at(WireSettings.T0 + 600), dir)) {
            assertFrozenStateError(continuation(expired, call, "alpha", token)); // SDK-level TTL, now == exp
        }
        assertEquals(1, StoreRows.count(alice().database(), "issues"));
    }

    @Test
    void afterRetentionExpiryTheReplayIsRefusedAndTheTombstoneStays() throws Exception {
        ObjectNode call = arguments("case-10", "guarded-10");
        WireSettings shortRetention = alice().withTtls(600, 60, 1200);
        String token;
        try (ServerProcess now = Servers.start(ServerKind.JAVA, shortRetention, dir)) {
            token = firstRound(now, call);
            continuation(now, call, "alpha", token);
        }
        try (ServerProcess later = Servers.start(ServerKind.JAVA, shortRetention.at(WireSettings.T0 + 120), dir)) {
            assertError(continuation(later, call, "alpha", token), -32602, "operation_retention_expired");
            // a fresh issuance under the old id conflicts: the row is a tombstone, never deleted
            assertError(continuation(later, call, "alpha", firstRound(later, call)), -32602, "operation_conflict");
        }
        assertEquals(1, StoreRows.count(alice().database(), "operations"));
    }

    @Test
    void anOperationCutAfterItsFirstEffectIsInProgressForever() throws Exception {
        ObjectNode call = arguments("stuck", "guarded-stuck").put("mode", "partial");
        String token;
        try (ServerProcess crashing = Servers.start(ServerKind.JAVA, alice().withFault("exit-after-partial-first-commit"), dir)) {
            token = firstRound(crashing, call);
            assertThrows(TransportFailure.class, () -> continuation(crashing, call, "alpha", token));
        }
        try (ServerProcess server = Servers.start(ServerKind.JAVA, alice(), dir)) {
            assertError(continuation(server, call, "alpha", token), -32602, "operation_in_progress");
            JsonNode status = status(server, "stuck");
            assertEquals("unknown", status.path("state").textValue());
            assertEquals("operation ledger state is 'in_progress'", status.path("detail").textValue());
            assertTrue(status.get("storedResult").isNull());
        }
        assertEquals(1, StoreRows.count(alice().database(), "issues"));
    }

    @Test
    void everyFlippedCharacterOfATokenIsRefused() throws Exception {
        ObjectNode call = arguments("flips", "guarded-flips");
        try (ServerProcess server = Servers.start(ServerKind.JAVA, alice(), dir)) {
            String token = firstRound(server, call);
            int positions = 0;
            for (int i = 0; i < token.length(); i += Math.max(1, token.length() / 96)) {
                char original = token.charAt(i);
                char replacement = original == 'A' ? 'B' : 'A';
                String flipped = token.substring(0, i) + replacement + token.substring(i + 1);
                assertFrozenStateError(continuation(server, call, "alpha", flipped));
                positions++;
            }
            assertTrue(positions >= 64, "flipped " + positions + " positions");
            assertFrozenStateError(continuation(server, call, "alpha", token.substring(0, token.length() - 4)));
            assertFrozenStateError(continuation(server, call, "alpha", token + "A"));
            assertFrozenStateError(continuation(server, call, "alpha", token + "="));
            assertFrozenStateError(continuation(server, call, "alpha", "v2" + token.substring(2)));
            assertEquals(0, StoreRows.count(alice().database(), "issues"));
            // after all that, the genuine token still commits
            assertEquals(false, continuation(server, call, "alpha", token).path("result").path("structuredContent")
                    .path("replayed").booleanValue());
        }
    }

    @Test
    void aTokenFromAnotherKeyOrToolIsRefused() throws Exception {
        ObjectNode call = arguments("foreign", "guarded-foreign");
        String otherKeyToken;
        WireSettings otherKey = new WireSettings(dir.resolve("other.sqlite3"), WireSettings.BACKEND, "alice", WireSettings.T0,
                300, 360, 600, "11".repeat(32), WireSettings.FINGERPRINT_KEY_HEX, null);
        try (ServerProcess other = Servers.start(ServerKind.JAVA, otherKey, dir)) {
            otherKeyToken = firstRound(other, call);
        }
        String controlToken;
        try (ServerProcess control = Servers.start(ServerKind.UNGUARDED, alice(), dir)) {
            controlToken = firstRound(control, Servers.controlArguments("guarded-foreign"));
        }
        try (ServerProcess server = Servers.start(ServerKind.JAVA, alice(), dir)) {
            assertFrozenStateError(continuation(server, call, "alpha", otherKeyToken));
            assertFrozenStateError(continuation(server, call, "alpha", controlToken));
        }
        assertEquals(0, StoreRows.count(alice().database(), "issues"));
    }

    @Test
    void dropAfterCommitLosesTheReplyButNotTheEffect() throws Exception {
        ObjectNode call = arguments("case-09", "guarded-09");
        String token;
        try (ServerProcess crashing = Servers.start(ServerKind.JAVA, alice().withFault("drop-after-commit"), dir)) {
            token = firstRound(crashing, call);
            assertThrows(TransportFailure.class, () -> continuation(crashing, call, "alpha", token));
            assertEquals(70, crashing.awaitExit(Servers.exitWait()));
        }
        assertEquals(1, StoreRows.count(alice().database(), "issues"));
        assertEquals(List.of(Map.of("state", "applied", "result", "created 1")),
                StoreRows.rows(alice().database(), "SELECT state, result FROM operations"));
        try (ServerProcess recovering = Servers.start(ServerKind.JAVA, alice(), dir)) {
            JsonNode status = status(recovering, "case-09");
            assertEquals("applied", status.path("state").textValue());
            assertEquals("created 1", status.path("storedResult").textValue());
            assertEquals(true, continuation(recovering, call, "alpha", token).path("result").path("structuredContent")
                    .path("replayed").booleanValue());
        }
        assertEquals(1, StoreRows.count(alice().database(), "issues"));
    }

    @ParameterizedTest(name = "{0} exits {1}")
    @CsvSource({"exit-after-ledger-insert, atomic, 71, 0", "exit-after-issue-insert, atomic, 72, 0",
        "exit-after-partial-first-commit, partial, 73, 1"})
    void cutPointsExitWithTheirStatusAndLeaveOnlyWhatIsDurable(String fault, String mode, int status, int issues) throws Exception {
        ObjectNode call = arguments("cut", "guarded-cut").put("mode", mode);
        try (ServerProcess server = Servers.start(ServerKind.JAVA, alice().withFault(fault), dir)) {
            String token = firstRound(server, call);
            assertThrows(TransportFailure.class, () -> continuation(server, call, "alpha", token));
            assertEquals(status, server.awaitExit(Servers.exitWait()));
        }
        assertEquals(issues, StoreRows.count(alice().database(), "issues"));
        assertEquals(issues, StoreRows.count(alice().database(), "operations"));
        if (issues == 1) {
            assertEquals("in_progress", StoreRows.rows(alice().database(), "SELECT state FROM operations").get(0).get("state"));
        }
    }

    @Test
    void theUnguardedControlCreatesADuplicateOnAnIdenticalContinuation() throws Exception {
        ObjectNode call = Servers.controlArguments("witness");
        try (ServerProcess control = Servers.start(ServerKind.UNGUARDED, alice(), dir)) {
            String token = firstRound(control, call);
            JsonNode first = continuation(control, call, "alpha", token).path("result").path("structuredContent");
            JsonNode second = continuation(control, call, "alpha", token).path("result").path("structuredContent");
            assertEquals("created 1", first.path("result").textValue());
            assertEquals("created 2", second.path("result").textValue());
        }
        assertEquals(2, StoreRows.rows(alice().database(), "SELECT id FROM issues WHERE title = 'witness'").size());
    }

    @Test
    void malformedLinesGetErrorsOrAreIgnoredAndServiceContinues() throws Exception {
        try (ServerProcess server = Servers.start(ServerKind.JAVA, alice(), dir)) {
            server.sendRaw("not json");
            assertEquals(-32700, firstError(server));
            server.sendRaw("[1,2,3]");
            server.sendRaw("{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{}}");
            server.sendRaw("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"create_guarded_issue\"}}");
            server.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\",\"params\":{\"pad\":\"" + "x".repeat(1 << 20) + "\"}}");
            ObjectNode alive = server.request("tools/list", com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode());
            assertEquals(2, alive.path("result").path("tools").size(), alive.toString());
            assertTrue(server.isAlive());
        }
        assertEquals(0, StoreRows.count(alice().database(), "issues"));
        assertTrue(Files.readString(dir.resolve(Files.list(dir).filter(p -> p.toString().endsWith(".transcript.log"))
                .findFirst().orElseThrow().getFileName())).contains("> not json"));
    }

    @Test
    void requestsAlreadySentAreAnsweredWhenStdinCloses() throws Exception {
        try (ServerProcess server = Servers.start(ServerKind.JAVA, alice(), dir)) {
            String meta = lab.continuationreplay.core.wire.WireEnvelope.meta().toString();
            server.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":" + meta + "}}");
            server.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{\"_meta\":" + meta + "}}");
            server.closeInput();
            java.util.Set<Long> answered = new java.util.HashSet<>();
            for (int i = 0; i < 2; i++) {
                answered.add(lab.continuationreplay.vectors.ExactJson.parse(server.nextLine(Servers.exitWait()).orElseThrow())
                        .path("id").longValue());
            }
            assertEquals(java.util.Set.of(1L, 2L), answered);
            assertEquals(0, server.awaitExit(Servers.exitWait()));
        }
    }

    @Test
    void aBadConfigurationExitsTwoNamingTheVariable() throws Exception {
        WireSettings bad = new WireSettings(dir.resolve("x.sqlite3"), WireSettings.BACKEND, "alice", WireSettings.T0, 300, 360,
                600, "abc", WireSettings.FINGERPRINT_KEY_HEX, null);
        try (ServerProcess server = Servers.start(ServerKind.JAVA, bad, dir)) {
            assertEquals(2, server.awaitExit(Servers.exitWait()));
        }
        String stderr = Files.list(dir).filter(p -> p.toString().endsWith(".stderr.log")).map(p -> {
            try {
                return Files.readString(p);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).reduce("", String::concat);
        assertTrue(stderr.contains("WIRE_STATE_KEY_HEX must be hexadecimal"), stderr);
        assertTrue(!stderr.contains("abc\n"), "the value is never echoed");
    }

    @Test
    void aLedgerThatCannotBeOpenedIsAnErrorOnTheWireUntilItCanAndAWrongBackendStillStopsTheServer() throws Exception {
        Path blocker = dir.resolve("blocker");
        Files.writeString(blocker, "a file where the ledger's folder should be");
        WireSettings blocked = WireSettings.matrix(blocker.resolve("store.sqlite3"), "alice");
        ObjectNode call = arguments("case-storage", "guarded-storage");
        try (ServerProcess server = Servers.start(ServerKind.JAVA, blocked, dir)) {
            assertError(server.callTool("create_guarded_issue", call, null, null), -32603, "ledger unavailable");
            assertError(server.callTool("get_operation_status",
                    com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("operation_id", "case-storage"),
                    null, null), -32603, "ledger unavailable");
            assertTrue(server.isAlive());
            Files.delete(blocker);
            String token = firstRound(server, call);
            assertEquals("created 1", continuation(server, call, "alpha", token).path("result").path("structuredContent")
                    .path("result").textValue());
        }
        assertEquals(1, StoreRows.count(blocked.database(), "issues"));
        WireSettings otherBackend = new WireSettings(blocked.database(), "sqlite:another-backend", "alice", WireSettings.T0,
                300, 360, 600, WireSettings.STATE_KEY_HEX, WireSettings.FINGERPRINT_KEY_HEX, null);
        try (ServerProcess server = Servers.start(ServerKind.JAVA, otherBackend, dir)) {
            assertEquals(2, server.awaitExit(Servers.exitWait()));
        }
    }

    private static int firstError(ServerProcess server) throws Exception {
        JsonNode reply = lab.continuationreplay.vectors.ExactJson.parse(server.nextLine(Servers.exitWait()).orElseThrow());
        return reply.path("error").path("code").intValue();
    }
}
