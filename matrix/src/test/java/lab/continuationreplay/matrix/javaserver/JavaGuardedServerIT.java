package lab.continuationreplay.matrix.javaserver;

import static lab.continuationreplay.matrix.javaserver.Servers.arguments;
import static lab.continuationreplay.matrix.javaserver.Servers.continuation;
import static lab.continuationreplay.matrix.javaserver.Servers.firstRound;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.RuleTable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The guarded Java server as a real process, spoken to in raw JSON lines. One server serves the whole class. */
class JavaGuardedServerIT {
    @TempDir
    static Path dir;
    static Path db;
    static ServerProcess server;

    @BeforeAll
    static void start() throws Exception {
        db = dir.resolve("store.sqlite3");
        server = Servers.start(ServerKind.JAVA, WireSettings.matrix(db, "alice"), dir);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static long issues() throws Exception {
        return StoreRows.count(db, "issues");
    }

    static void assertError(ObjectNode reply, int code, String message) {
        assertEquals(code, reply.path("error").path("code").intValue(), reply.toString());
        assertEquals(message, reply.path("error").path("message").textValue(), reply.toString());
    }

    static void assertFrozenStateError(ObjectNode reply) {
        assertError(reply, -32602, "Invalid or expired requestState");
        assertEquals("invalid_request_state", reply.path("error").path("data").path("reason").textValue(), reply.toString());
    }

    @Test
    void listsBothToolsAndAnswersDiscover() throws Exception {
        ObjectNode tools = server.request("tools/list", JsonNodeFactory.instance.objectNode());
        JsonNode list = tools.path("result").path("tools");
        assertEquals(List.of("create_guarded_issue", "get_operation_status"),
                List.of(list.get(0).path("name").textValue(), list.get(1).path("name").textValue()));
        // the built jar lists the shared table's tools, member for member
        assertEquals(RuleTable.load("tools.json").member("guarded"), list);
        assertEquals("complete", tools.path("result").path("resultType").textValue());
        ObjectNode discover = server.request("server/discover", JsonNodeFactory.instance.objectNode());
        assertEquals("[\"2026-07-28\"]", discover.path("result").path("supportedVersions").toString());
    }

    @Test
    void twoRoundsCommitOnceAndAnIdenticalContinuationReplays() throws Exception {
        ObjectNode call = arguments("rounds", "guarded-rounds");
        ObjectNode first = server.callTool("create_guarded_issue", call, null, null);
        JsonNode input = first.path("result");
        assertEquals("input_required", input.path("resultType").textValue());
        assertEquals("elicitation/create", input.path("inputRequests").path("body").path("method").textValue());
        assertEquals("Body for guarded-rounds?", input.path("inputRequests").path("body").path("params").path("message").textValue());
        String token = input.path("requestState").textValue();
        assertTrue(token.startsWith("v1."), token);
        long before = issues();

        JsonNode applied = continuation(server, call, "alpha", token).path("result");
        assertEquals("complete", applied.path("resultType").textValue());
        assertFalse(applied.path("isError").booleanValue());
        JsonNode structured = applied.path("structuredContent");
        assertEquals(List.of("operationId", "effectId", "result", "replayed", "state"), fieldNames(structured));
        assertEquals("rounds", structured.path("operationId").textValue());
        assertFalse(structured.path("replayed").booleanValue());
        assertEquals("applied", structured.path("state").textValue());
        long effect = structured.path("effectId").longValue();
        assertEquals("created " + effect, structured.path("result").textValue());
        assertEquals(structured, ExactJson.parse(applied.path("content").get(0).path("text").textValue()));

        JsonNode replay = continuation(server, call, "alpha", token).path("result").path("structuredContent");
        assertTrue(replay.path("replayed").booleanValue());
        assertEquals(effect, replay.path("effectId").longValue());
        // mode spelled out or defaulted is the same call
        JsonNode explicitMode = continuation(server, call.deepCopy().put("mode", "atomic"), "alpha", token)
                .path("result").path("structuredContent");
        assertTrue(explicitMode.path("replayed").booleanValue());
        assertEquals(before + 1, issues());
    }

    @Test
    void aChangedAnswerConflictsBeforeASecondEffect() throws Exception {
        ObjectNode call = arguments("changed-body", "guarded-04");
        String token = firstRound(server, call);
        continuation(server, call, "alpha", token);
        long before = issues();
        ObjectNode reply = continuation(server, call, "beta", token);
        assertError(reply, -32602, "operation_conflict");
        assertTrue(reply.path("error").path("data").isMissingNode(), "application errors carry no data");
        assertEquals(before, issues());
        assertEquals(0, StoreRows.rows(db, "SELECT id FROM issues WHERE body = 'beta'").size());
    }

    @Test
    void aSecondTokenForTheSameOperationConflicts() throws Exception {
        ObjectNode call = arguments("second-token", "guarded-05");
        String first = firstRound(server, call);
        String second = firstRound(server, call);
        continuation(server, call, "alpha", first);
        assertError(continuation(server, call, "alpha", second), -32602, "operation_conflict");
    }

    @Test
    void aChangedTitleOrModeWithTheSameTokenIsRefusedAndWritesNothing() throws Exception {
        ObjectNode call = arguments("changed-title", "original");
        String token = firstRound(server, call);
        long before = issues();
        assertFrozenStateError(continuation(server, arguments("changed-title", "changed"), "alpha", token));
        assertFrozenStateError(continuation(server, call.deepCopy().put("mode", "partial"), "alpha", token));
        assertFrozenStateError(continuation(server, arguments("another-id", "original"), "alpha", token));
        assertEquals(before, issues());
        assertEquals(0, StoreRows.count(db, "operations WHERE operation_id = 'changed-title'"));
    }

    @Test
    void roundRulesAndArgumentRulesAreInvalidParams() throws Exception {
        ObjectNode call = arguments("rules", "guarded-rules");
        String token = firstRound(server, call);
        assertError(server.callTool("create_guarded_issue", call, Servers.accepted("alpha"), null), -32602,
                "unsupported continuation: input responses require requestState");
        assertError(server.callTool("create_guarded_issue", call, null, token), -32602, "requestState without input responses");
        assertError(server.callTool("create_guarded_issue", arguments("", "x"), null, null), -32602,
                "operation_id and title are required");
        assertError(server.callTool("create_guarded_issue", call, ExactJson.parse("{\"body\":{\"action\":\"decline\"}}"), token),
                -32602, "body response must be accepted text");
        assertError(server.callTool("create_guarded_issue", call,
                ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"a\"}},\"x\":{}}"), token),
                -32602, "unsupported input response fields");
        assertError(server.callTool("create_guarded_issue", call,
                ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"a\"},\"_meta\":{\"trace\":1}}}"), token),
                -32602, "body response must be accepted text");
        assertEquals(0, StoreRows.count(db, "operations WHERE operation_id = 'rules'"));
        // still serving, and the same token still commits exactly once
        assertEquals("created", continuation(server, call, "alpha", token).path("result").path("structuredContent")
                .path("result").textValue().split(" ")[0]);
    }

    @Test
    void unknownArgumentsAndModesAreRefusedByTheSdkSchemaCheck() throws Exception {
        JsonNode extra = server.callTool("create_guarded_issue", arguments("x", "y").put("extra", 1), null, null).path("result");
        assertTrue(extra.path("isError").booleanValue(), extra.toString());
        assertTrue(extra.path("content").get(0).path("text").textValue().startsWith("Invalid arguments"), extra.toString());
        JsonNode mode = server.callTool("create_guarded_issue", arguments("x", "y").put("mode", "bogus"), null, null).path("result");
        assertTrue(mode.path("isError").booleanValue(), mode.toString());
    }

    @Test
    void statusIsAuthoritativeForAppliedAndUnknownForTheRest() throws Exception {
        ObjectNode call = arguments("status-applied", "guarded-status");
        continuation(server, call, "alpha", firstRound(server, call));
        JsonNode applied = status(server, "status-applied");
        assertEquals(List.of("operationId", "principal", "backend", "observedAt", "authoritative", "freshWriteAuthorized",
                "scope", "scopeBinding", "state", "matchingIds", "detail", "storedResult"), fieldNames(applied));
        assertEquals("applied", applied.path("state").textValue());
        assertEquals("2026-09-22T00:00:00+00:00", applied.path("observedAt").textValue());
        assertFalse(applied.path("freshWriteAuthorized").booleanValue());
        long effect = applied.path("matchingIds").get(0).longValue();
        assertEquals("created " + effect, applied.path("storedResult").textValue());

        JsonNode unknown = status(server, "never-admitted");
        assertEquals("unknown", unknown.path("state").textValue());
        assertEquals("[]", unknown.path("matchingIds").toString());
        assertTrue(unknown.has("storedResult") && unknown.get("storedResult").isNull(), unknown.toString());
        assertEquals("no durable operation record; absence is not terminal non-application proof", unknown.path("detail").textValue());
    }

    @Test
    void partialModeRecordsThePartialEffect() throws Exception {
        ObjectNode call = arguments("partial", "guarded-12").put("mode", "partial");
        JsonNode first = continuation(server, call, "alpha", firstRound(server, call)).path("result").path("structuredContent");
        long effect = first.path("effectId").longValue();
        assertEquals("partial " + effect + "; watcher failed; rollback failed", first.path("result").textValue());
        assertEquals("partial", first.path("state").textValue());
        JsonNode status = status(server, "partial");
        assertEquals("partial", status.path("state").textValue());
        assertEquals(4, StoreRows.count(db, "operation_events WHERE operation_id = 'partial'"));
    }

    @Test
    void protocolRulesOfTheModernEra() throws Exception {
        server.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"legacy\",\"version\":\"1\"}}}");
        JsonNode init = ExactJson.parse(server.nextLine(Servers.exitWait()).orElseThrow());
        assertEquals(-32022, init.path("error").path("code").intValue(), init.toString());
        server.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":\"bare\",\"method\":\"tools/list\",\"params\":{}}");
        JsonNode bare = ExactJson.parse(server.nextLine(Servers.exitWait()).orElseThrow());
        assertEquals(-32602, bare.path("error").path("code").intValue(), bare.toString());
        ObjectNode noElicitation = JsonNodeFactory.instance.objectNode();
        noElicitation.put("name", "create_guarded_issue");
        noElicitation.set("arguments", arguments("caps", "caps"));
        ObjectNode meta = noElicitation.putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.putObject("io.modelcontextprotocol/clientCapabilities");
        assertEquals(-32021, server.request("tools/call", noElicitation).path("error").path("code").intValue());
    }

    static JsonNode status(ServerProcess process, String operationId) throws Exception {
        ObjectNode reply = process.callTool("get_operation_status",
                JsonNodeFactory.instance.objectNode().put("operation_id", operationId), null, null);
        return reply.path("result").path("structuredContent");
    }

    static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
