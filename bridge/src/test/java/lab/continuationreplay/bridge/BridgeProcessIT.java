package lab.continuationreplay.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerQueries;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged bridge over real pipes: framing, order, the guard's answers, and the rows it leaves. */
class BridgeProcessIT {
    private static final String INVALID = "invalid_application_request";

    @TempDir
    Path dir;

    private Path database() {
        return dir.resolve("store.sqlite3");
    }

    private static JsonNode json(String line) {
        return ExactJson.parse(line);
    }

    @Test
    void appliesReplaysConflictsAndReportsStatus() throws Exception {
        try (BridgeProcess bridge = BridgeProcess.start(BridgeProcess.environment(database()))) {
            assertEquals("{\"ok\":true,\"result\":{\"operationId\":\"case-01\",\"effectId\":1,\"result\":\"created 1\","
                    + "\"replayed\":false,\"state\":\"applied\"}}", bridge.call(Requests.apply("case-01", "guarded-01", "atomic", "alpha")));
            assertEquals("{\"ok\":true,\"result\":{\"operationId\":\"case-01\",\"effectId\":1,\"result\":\"created 1\","
                    + "\"replayed\":true,\"state\":\"applied\"}}", bridge.call(Requests.apply("case-01", "guarded-01", "atomic", "alpha")));
            JsonNode conflict = json(bridge.call(Requests.apply("case-01", "guarded-01", "atomic", "beta")));
            assertEquals("operation_conflict", conflict.get("error").textValue());
            assertEquals(List.of("ok", "error", "detail"), fieldNames(conflict));

            JsonNode applied = json(bridge.call(Requests.status("case-01")));
            assertEquals("applied", applied.at("/result/state").textValue());
            assertEquals("created 1", applied.at("/result/storedResult").textValue());
            assertEquals(List.of("operationId", "principal", "backend", "observedAt", "authoritative", "freshWriteAuthorized",
                    "scope", "scopeBinding", "state", "matchingIds", "detail", "storedResult"), fieldNames(applied.get("result")));
            JsonNode unknown = json(bridge.call(Requests.status("case-99")));
            assertEquals("unknown", unknown.at("/result/state").textValue());
            assertEquals(true, unknown.at("/result/storedResult").isNull());
            bridge.closeInput();
            assertNull(bridge.readLine());
            assertEquals(0, bridge.awaitExit());
            assertEquals("", bridge.stderr());
        }
        try (IssueLedger ledger = IssueLedger.open(database(), Requests.BACKEND)) {
            assertEquals(1, new LedgerQueries(ledger).issueCount());
            assertEquals(1, new LedgerQueries(ledger).operationCount());
        }
    }

    /** The unguarded control's write, through the same bridge process: a new issue per call, beside the guarded ones. */
    @Test
    void createWritesANewIssueEachTimeBesideTheGuardedOnes() throws Exception {
        try (BridgeProcess bridge = BridgeProcess.start(BridgeProcess.environment(database()))) {
            assertEquals("created 1", json(bridge.call(Requests.apply("case-01", "guarded-01", "atomic", "alpha"))).at("/result/result").textValue());
            assertEquals("{\"ok\":true,\"result\":{\"issueId\":2,\"result\":\"created 2\"}}", bridge.call(Requests.create("t", "alpha")));
            assertEquals("{\"ok\":true,\"result\":{\"issueId\":3,\"result\":\"created 3\"}}", bridge.call(Requests.create("t", "alpha")));
            bridge.closeInput();
            assertNull(bridge.readLine());
            assertEquals(0, bridge.awaitExit());
        }
        try (IssueLedger ledger = IssueLedger.open(database(), Requests.BACKEND)) {
            assertEquals(3, new LedgerQueries(ledger).issueCount());
            assertEquals(1, new LedgerQueries(ledger).operationCount());
        }
    }

    @Test
    void everyBadRequestIsAnsweredAndTheNextValidOneStillWorks() throws Exception {
        ObjectNode extraField = Requests.apply("op-x", "t", "atomic", "b");
        extraField.put("principal", "mallory");
        ObjectNode wrongType = Requests.apply("op-x", "t", "atomic", "b");
        wrongType.put("state", "{}");
        ObjectNode otherBody = Requests.apply("op-x", "t", "atomic", "b");
        otherBody.put("body", "c");
        byte[] invalidUtf8 = {'{', '"', 'o', 'p', '"', ':', '"', (byte) 0xff, '"', '}'};
        List<byte[]> badLines = List.of(
                "not json".getBytes(StandardCharsets.UTF_8),
                "".getBytes(StandardCharsets.UTF_8),
                "[]".getBytes(StandardCharsets.UTF_8),
                "\"apply\"".getBytes(StandardCharsets.UTF_8),
                "{\"op\":\"drop_table\"}".getBytes(StandardCharsets.UTF_8),
                "{\"op\":\"status\"}".getBytes(StandardCharsets.UTF_8),
                "{\"op\":\"status\",\"operation_id\":1}".getBytes(StandardCharsets.UTF_8),
                Requests.bytes(extraField),
                Requests.bytes(wrongType),
                Requests.bytes(otherBody),
                Requests.bytes(Requests.apply("op-x", "t", "bulk", "b")),
                invalidUtf8);
        try (BridgeProcess bridge = BridgeProcess.start(BridgeProcess.environment(database()))) {
            int n = 0;
            for (byte[] bad : badLines) {
                bridge.write(bad);
                bridge.write(new byte[] {'\n'});
                JsonNode reply = json(bridge.readLine());
                assertEquals(INVALID, reply.get("error").textValue(), new String(bad, StandardCharsets.UTF_8));
                String op = "after-" + n++;
                JsonNode next = json(bridge.call(Requests.apply(op, "t", "atomic", "b")));
                assertEquals(false, next.at("/result/replayed").booleanValue(), next.toString());
            }
            assertEquals(0, exitAfterEof(bridge));
        }
        try (IssueLedger ledger = IssueLedger.open(database(), Requests.BACKEND)) {
            assertEquals(badLines.size(), new LedgerQueries(ledger).issueCount());
        }
    }

    @Test
    void anOversizeLineIsRefusedWithoutBufferingAndServingGoesOn() throws Exception {
        try (BridgeProcess bridge = BridgeProcess.start(BridgeProcess.environment(database()))) {
            byte[] chunk = "y".repeat(64 * 1024).getBytes(StandardCharsets.UTF_8);
            bridge.write("{\"op\":\"status\",\"operation_id\":\"".getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 64; i++) { // 4 MiB in one line
                bridge.write(chunk);
            }
            bridge.write("\"}\n".getBytes(StandardCharsets.UTF_8));
            assertEquals("{\"ok\":false,\"error\":\"invalid_application_request\",\"detail\":\"request line longer than 262144 bytes\"}",
                    bridge.readLine());
            assertEquals("unknown", json(bridge.call(Requests.status("op-1"))).at("/result/state").textValue());
            assertEquals(0, exitAfterEof(bridge));
        }
    }

    @Test
    void requestsWrittenTogetherAreAnsweredInOrder() throws Exception {
        StringBuilder batch = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            batch.append(i % 2 == 0 ? Requests.apply("op-" + i, "t", "atomic", "b") : Requests.status("op-" + (i - 1))).append('\n');
        }
        try (BridgeProcess bridge = BridgeProcess.start(BridgeProcess.environment(database()))) {
            bridge.write(batch.toString().getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 20; i++) {
                JsonNode reply = json(bridge.readLine());
                assertEquals("op-" + (i % 2 == 0 ? i : i - 1), reply.at("/result/operationId").textValue());
            }
            assertEquals(0, exitAfterEof(bridge));
        }
    }

    @Test
    void aLastRequestWithoutNewlineIsAnsweredAtEndOfInput() throws Exception {
        try (BridgeProcess bridge = BridgeProcess.start(BridgeProcess.environment(database()))) {
            bridge.write(Requests.bytes(Requests.status("op-1")));
            bridge.closeInput();
            assertEquals("unknown", json(bridge.readLine()).at("/result/state").textValue());
            assertNull(bridge.readLine());
            assertEquals(0, bridge.awaitExit());
        }
    }

    @Test
    void theSchemaExistsBeforeTheFirstRequest() throws Exception {
        try (BridgeProcess bridge = BridgeProcess.start(BridgeProcess.environment(database()))) {
            assertEquals(0, exitAfterEof(bridge));
        }
        try (IssueLedger ledger = IssueLedger.open(database(), Requests.BACKEND)) {
            assertEquals(0, new LedgerQueries(ledger).operationCount());
        }
    }

    private static int exitAfterEof(BridgeProcess bridge) throws Exception {
        bridge.closeInput();
        assertNull(bridge.readLine());
        return bridge.awaitExit();
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
