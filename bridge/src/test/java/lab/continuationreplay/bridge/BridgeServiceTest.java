package lab.continuationreplay.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import lab.continuationreplay.store.guard.GuardConfig;
import lab.continuationreplay.store.guard.IssueGuard;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerQueries;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.FingerprintKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BridgeServiceTest {
    @TempDir
    Path dir;
    private IssueLedger ledger;
    private BridgeService service;

    @BeforeEach
    void open() throws Exception {
        ledger = IssueLedger.open(dir.resolve("store.sqlite3"), Requests.BACKEND);
        service = service("alice");
    }

    @AfterEach
    void close() throws Exception {
        ledger.close();
    }

    private BridgeService service(String principal) {
        GuardConfig config = GuardConfig.withoutMinting(principal, Requests.BACKEND, Requests.NOW,
                FingerprintKey.fromHex(Requests.FINGERPRINT_KEY_HEX, "WIRE_FINGERPRINT_KEY_HEX"));
        return new BridgeService(new IssueGuard(config, ledger, FaultHook.NONE), ledger);
    }

    private String answer(Object request) {
        return service.handle(Requests.bytes(request)).toString();
    }

    @Test
    void appliesOnceThenReplays() throws Exception {
        String expected = "{\"ok\":true,\"result\":{\"operationId\":\"op-1\",\"effectId\":1,\"result\":\"created 1\","
                + "\"replayed\":%s,\"state\":\"applied\"}}";
        assertEquals(expected.formatted("false"), answer(Requests.apply("op-1", "title", "atomic", "alpha")));
        assertEquals(expected.formatted("true"), answer(Requests.apply("op-1", "title", "atomic", "alpha")));
        assertEquals(1, queries().issueCount());
        assertEquals(1, queries().operationCount());
    }

    @Test
    void createWritesANewIssueEachTimeAndNoOperationRow() throws Exception {
        assertEquals("{\"ok\":true,\"result\":{\"issueId\":1,\"result\":\"created 1\"}}", answer(Requests.create("title", "alpha")));
        assertEquals("{\"ok\":true,\"result\":{\"issueId\":2,\"result\":\"created 2\"}}", answer(Requests.create("title", "alpha")));
        assertEquals(2, queries().issueCount());
        assertEquals(0, queries().operationCount());
    }

    @Test
    void createRefusesAnEmptyTitleOrTwoBodiesAndWritesNothing() throws Exception {
        JsonNode untitled = ExactJson.parse(answer(Requests.create("", "alpha")));
        assertEquals("invalid_application_request", untitled.get("error").textValue(), untitled.toString());
        assertEquals("title is required", untitled.get("detail").textValue());
        ObjectNode twoBodies = Requests.create("title", "alpha");
        twoBodies.set("responses", Requests.responses("beta"));
        JsonNode refused = ExactJson.parse(answer(twoBodies));
        assertEquals("body does not match the accepted body input response", refused.get("detail").textValue(), refused.toString());
        assertEquals(0, queries().issueCount());
        assertEquals(ExactJson.parse(answer(Requests.create("title", "alpha"))).at("/result/issueId").intValue(), 1,
                "the bridge serves on after a refusal");
    }

    @Test
    void aChangedBodyOrTitleConflicts() throws Exception {
        answer(Requests.apply("op-1", "title", "atomic", "alpha"));
        JsonNode changedBody = ExactJson.parse(answer(Requests.apply("op-1", "title", "atomic", "beta")));
        assertEquals(false, changedBody.get("ok").booleanValue());
        assertEquals("operation_conflict", changedBody.get("error").textValue());
        assertEquals("operation_id is already bound to a different principal, backend, or request fingerprint",
                changedBody.get("detail").textValue());
        assertEquals("operation_conflict",
                ExactJson.parse(answer(Requests.apply("op-1", "other", "atomic", "alpha"))).get("error").textValue());
        assertEquals(1, queries().issueCount());
    }

    @Test
    void partialModeLeavesThePartialEffect() throws Exception {
        JsonNode reply = ExactJson.parse(answer(Requests.apply("op-p", "title", "partial", "alpha")));
        assertEquals("partial 1; watcher failed; rollback failed", reply.at("/result/result").textValue());
        assertEquals("partial", reply.at("/result/state").textValue());
        assertEquals(false, reply.at("/result/replayed").booleanValue());
    }

    @Test
    void statusReadsAppliedAndUnknown() throws Exception {
        answer(Requests.apply("op-1", "title", "atomic", "alpha"));
        JsonNode applied = ExactJson.parse(answer(Requests.status("op-1")));
        assertEquals(true, applied.get("ok").booleanValue());
        assertEquals("applied", applied.at("/result/state").textValue());
        assertEquals("created 1", applied.at("/result/storedResult").textValue());
        assertEquals("alice", applied.at("/result/principal").textValue());
        assertEquals("unknown", ExactJson.parse(answer(Requests.status("nope"))).at("/result/state").textValue());
        assertEquals("unknown", ExactJson.parse(service("bob").handle(Requests.bytes(Requests.status("op-1"))).toString())
                .at("/result/state").textValue());
    }

    @Test
    void theBodyMustBeTheAcceptedBody() throws Exception {
        ObjectNode request = Requests.apply("op-1", "title", "atomic", "alpha");
        request.put("body", "beta");
        assertEquals("{\"ok\":false,\"error\":\"invalid_application_request\","
                + "\"detail\":\"body does not match the accepted body input response\"}", answer(request));
        assertEquals(0, queries().operationCount());
    }

    @Test
    void guardRefusalsAreInvalidRequestsWithTheGuardsMessage() throws Exception {
        ObjectNode wrongMode = Requests.apply("op-1", "title", "bulk", "alpha");
        assertEquals("mode must be 'atomic' or 'partial'", detail(wrongMode));
        ObjectNode emptyTitle = Requests.apply("op-1", "", "atomic", "alpha");
        assertEquals("operation_id and title are required", detail(emptyTitle));
        ObjectNode otherOperation = Requests.apply("op-1", "title", "atomic", "alpha");
        otherOperation.set("state", Requests.state("op-2"));
        assertEquals("requestState operation binding mismatch", detail(otherOperation));
        ObjectNode traced = Requests.apply("op-1", "title", "atomic", "alpha");
        ((ObjectNode) traced.get("responses").get("body")).putObject("_meta").put("trace", "t");
        assertEquals("body response must be accepted text", detail(traced));
        ObjectNode future = Requests.apply("op-1", "title", "atomic", "alpha");
        ((ObjectNode) future.get("state")).put("issued_at", Requests.NOW + 1);
        assertEquals("requestState issued_at is in the future", detail(future));
        assertEquals("operation_id is required", detail(Requests.status("")));
        assertEquals(0, queries().operationCount());
        assertEquals(0, queries().issueCount());
    }

    @Test
    void anExpiredAuthorityIsItsOwnKind() throws Exception {
        ObjectNode expired = Requests.apply("op-1", "title", "atomic", "alpha");
        ObjectNode state = (ObjectNode) expired.get("state");
        state.put("issued_at", Requests.NOW - 400);
        state.put("authority_expires_at", Requests.NOW - 100);
        assertEquals("operation_authority_expired", ExactJson.parse(answer(expired)).get("error").textValue());
    }

    @Test
    void aStorageFailureIsAnsweredNotThrown() throws Exception {
        ledger.close();
        JsonNode reply = ExactJson.parse(answer(Requests.status("op-1")));
        assertEquals("storage_failure", reply.get("error").textValue());
        assertEquals(false, reply.get("detail").textValue().contains("\n"));
        JsonNode apply = ExactJson.parse(answer(Requests.apply("op-1", "title", "atomic", "alpha")));
        assertEquals("storage_failure", apply.get("error").textValue());
    }

    private String detail(Object request) {
        JsonNode reply = ExactJson.parse(answer(request));
        assertEquals("invalid_application_request", reply.get("error").textValue(), reply.toString());
        return reply.get("detail").textValue();
    }

    private LedgerQueries queries() {
        return new LedgerQueries(ledger);
    }
}
