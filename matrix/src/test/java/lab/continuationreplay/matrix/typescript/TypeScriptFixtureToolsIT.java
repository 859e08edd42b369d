package lab.continuationreplay.matrix.typescript;

import static lab.continuationreplay.matrix.typescript.Fixture.arguments;
import static lab.continuationreplay.matrix.typescript.Fixture.continuation;
import static lab.continuationreplay.matrix.typescript.Fixture.firstRound;
import static lab.continuationreplay.matrix.typescript.Fixture.status;
import static lab.continuationreplay.matrix.typescript.Fixture.structured;
import static lab.continuationreplay.matrix.typescript.Fixture.toolError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.RuleTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TypeScript fixture's tools over raw 2026-07-28 JSON-RPC, checked against the rows it leaves. */
class TypeScriptFixtureToolsIT {
    @TempDir
    Path dir;

    @Test
    void listsBothToolsOnTheModernEraWithoutInitialize() throws Exception {
        try (ServerProcess server = Fixture.start(dir)) {
            ObjectNode reply = server.request("tools/list", JsonNodeFactory.instance.objectNode());
            JsonNode result = reply.get("result");
            assertEquals("complete", result.get("resultType").textValue());
            assertEquals(ExactJson.parse("{\"name\":\"continuation-replay-ts-fixture\",\"version\":\"0.1.0\"}"),
                    result.at("/_meta/io.modelcontextprotocol~1serverInfo"));
            // the compiled fixture lists the shared table's tools, member for member
            assertEquals(RuleTable.load("tools.json").member("guarded"), result.get("tools"));
        }
    }

    @Test
    void bothRoundsApplyOnceThenReplayAndAChangedBodyConflicts() throws Exception {
        Path db = Fixture.database(dir);
        try (ServerProcess server = Fixture.start(dir)) {
            ObjectNode args = arguments("case-01", "guarded-01");
            ObjectNode first = server.callTool(Fixture.GUARDED, args, null, null);
            assertEquals(ExactJson.parse("{\"body\":{\"method\":\"elicitation/create\",\"params\":{\"message\":\"Body for guarded-01?\","
                    + "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"body\":{\"type\":\"string\"}},\"required\":[\"body\"]},"
                    + "\"mode\":\"form\"}}}"), first.at("/result/inputRequests"));
            String token = first.at("/result/requestState").textValue();
            assertTrue(token.startsWith("v1."), token);
            assertEquals(0, FixtureRows.operations(db), "the first round writes nothing");

            assertEquals(ExactJson.parse("{\"operationId\":\"case-01\",\"effectId\":1,\"result\":\"created 1\","
                    + "\"replayed\":false,\"state\":\"applied\"}"), structured(continuation(server, args, "alpha", token)));
            assertEquals(ExactJson.parse("{\"operationId\":\"case-01\",\"effectId\":1,\"result\":\"created 1\","
                    + "\"replayed\":true,\"state\":\"applied\"}"), structured(continuation(server, args, "alpha", token)));
            assertEquals("operation_conflict", toolError(continuation(server, args, "beta", token)));
        }
        assertEquals(1, FixtureRows.issues(db));
        assertEquals(1, FixtureRows.operations(db));
        assertEquals(new FixtureRows.Operation("applied", 1L, "created 1"), FixtureRows.operation(db, "case-01").orElseThrow());
        String evidence = Fixture.evidence(dir);
        assertFalse(evidence.contains(Fixture.STATE_KEY_HEX), "the state key must never be logged or echoed");
        assertFalse(evidence.contains(Fixture.FINGERPRINT_KEY_HEX), "the fingerprint key must never be logged or echoed");
    }

    @Test
    void statusReadsAppliedUnknownAndNeverAnotherPrincipalsOperation() throws Exception {
        try (ServerProcess alice = Fixture.start(dir)) {
            ObjectNode args = arguments("case-04", "guarded-04");
            continuation(alice, args, "alpha", firstRound(alice, args));
            JsonNode applied = structured(status(alice, "case-04"));
            assertEquals("applied", applied.get("state").textValue());
            assertEquals("created 1", applied.get("storedResult").textValue());
            assertEquals("alice", applied.get("principal").textValue());
            assertEquals(true, applied.get("authoritative").booleanValue());
            assertEquals(false, applied.get("freshWriteAuthorized").booleanValue());
            assertEquals("2026-09-22T00:00:00+00:00", applied.get("observedAt").textValue());
            JsonNode unknown = structured(status(alice, "case-404"));
            assertEquals("unknown", unknown.get("state").textValue());
            assertTrue(unknown.get("storedResult").isNull());
        }
        var bob = Fixture.environment(dir);
        bob.put("WIRE_PRINCIPAL", "bob");
        try (ServerProcess server = Fixture.start(dir, bob)) {
            JsonNode seenByBob = structured(status(server, "case-04"));
            assertEquals("unknown", seenByBob.get("state").textValue());
            assertEquals("bob", seenByBob.get("principal").textValue());
            assertTrue(seenByBob.get("matchingIds").isEmpty());
        }
    }

    @Test
    void partialModeLeavesThePartialEffect() throws Exception {
        Path db = Fixture.database(dir);
        try (ServerProcess server = Fixture.start(dir)) {
            ObjectNode args = arguments("case-12", "guarded-12").put("mode", "partial");
            assertEquals(ExactJson.parse("{\"operationId\":\"case-12\",\"effectId\":1,"
                    + "\"result\":\"partial 1; watcher failed; rollback failed\",\"replayed\":false,\"state\":\"partial\"}"),
                    structured(continuation(server, args, "alpha", firstRound(server, args))));
            assertEquals("partial", structured(status(server, "case-12")).get("state").textValue());
        }
        assertEquals(1, FixtureRows.issues(db));
        assertEquals("partial", FixtureRows.operation(db, "case-12").orElseThrow().state());
    }

    @Test
    void roundRulesAndInputResponsesAreRefusedBeforeTheBridge() throws Exception {
        Path db = Fixture.database(dir);
        try (ServerProcess server = Fixture.start(dir)) {
            ObjectNode args = arguments("case-11", "guarded-11");
            String token = firstRound(server, args);
            assertEquals("requestState without input responses", toolError(server.callTool(Fixture.GUARDED, args, null, token)));
            assertEquals("unsupported continuation: input responses require requestState",
                    toolError(server.callTool(Fixture.GUARDED, args, Fixture.accepted("alpha"), null)));
            assertEquals("body response must be accepted text", toolError(server.callTool(Fixture.GUARDED, args,
                    ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"a\",\"priority\":1}}}"), token)));
            assertEquals("unsupported body response fields: [trace]", toolError(server.callTool(Fixture.GUARDED, args,
                    ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"a\"},\"trace\":1}}"), token)));
            assertEquals("body response must be accepted text", toolError(server.callTool(Fixture.GUARDED, args,
                    ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"a\"},\"_meta\":{\"t\":1}}}"), token)));
            assertEquals("unsupported input response fields", toolError(server.callTool(Fixture.GUARDED, args,
                    ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"a\"}},\"cc\":{\"action\":\"decline\"}}"), token)));
            assertEquals("missing body input response", toolError(server.callTool(Fixture.GUARDED, args,
                    ExactJson.parse("{}"), token)));
            assertEquals("operation_id and title are required", toolError(server.callTool(Fixture.GUARDED,
                    arguments("case-11", ""), null, null)));
            assertEquals(0, FixtureRows.operations(db));
            // the same token still commits once afterwards
            assertEquals("created 1", structured(continuation(server, args, "alpha", token)).get("result").textValue());
        }
        assertEquals(1, FixtureRows.issues(db));
    }

    @Test
    void endOfInputEndsTheFixtureAndItsBridge() throws Exception {
        ServerProcess server = Fixture.start(dir);
        structured(status(server, "x"));
        server.close();
        assertEquals(0, server.awaitExit(Duration.ofSeconds(10)));
    }
}
