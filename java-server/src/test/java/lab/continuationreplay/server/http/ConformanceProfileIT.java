package lab.continuationreplay.server.http;

import static lab.continuationreplay.server.http.FixtureRequests.JSON;
import static lab.continuationreplay.server.http.FixtureRequests.continuation;
import static lab.continuationreplay.server.http.FixtureRequests.promptGet;
import static lab.continuationreplay.server.http.FixtureRequests.toolCall;
import static lab.continuationreplay.server.http.HttpServerProcess.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --http 0 --conformance} without a tokens file, as the official suite meets it: no bearer token, the fixed
 * principal {@code conformance}, every multi-round fixture round-tripped, and every kind of bad {@code requestState}
 * refused with the frozen {@code -32602} while the server keeps serving. One server for the class; its fixture states
 * live {@value #TTL_SECONDS} s so that the expiry test waits only that long.
 */
class ConformanceProfileIT {
    static final int TTL_SECONDS = 3;
    static final String STATE_FIXTURE = "test_input_required_result_request_state";
    static final List<String> TOOL_FIXTURES = List.of("test_input_required_result_elicitation",
            "test_input_required_result_sampling", "test_input_required_result_list_roots", STATE_FIXTURE,
            "test_input_required_result_multiple_inputs", "test_input_required_result_multi_round",
            "test_input_required_result_tampered_state", "test_input_required_result_capabilities",
            "test_streaming_elicitation");
    static final String PROMPT_FIXTURE = "test_input_required_result_prompt";

    @TempDir
    static Path dir;
    static HttpServerProcess server;
    static FixtureRequests anonymous;

    @BeforeAll
    static void start() throws Exception {
        server = HttpServerProcess.start(dir.resolve("profile"), List.of(), null, List.of("--conformance"), false,
                Map.of("WIRE_CONFORMANCE_STATE_TTL", Integer.toString(TTL_SECONDS)));
        anonymous = new FixtureRequests(server, null);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void withoutATokensFileNoTokenIsNeededAndEveryCallIsThePrincipalConformance() throws Exception {
        assertTrue(server.stderrText().contains("every request acts as the fixed principal 'conformance'"),
                server.stderrText());
        HttpResponse<String> first = server.send(server.post(null, "tools/call", "create_guarded_issue",
                HttpServerProcess.roundOne(1, "op-profile", "Profile")));
        assertEquals(200, first.statusCode(), first.body());
        String state = JSON.readTree(first.body()).path("result").path("requestState").asText();
        // A token the server does not know is ignored, not refused: there are no tokens to know.
        HttpResponse<String> applied = server.send(server.post(ALICE, "tools/call", "create_guarded_issue",
                HttpServerProcess.continuation(2, "op-profile", "Profile", "body", state)));
        assertEquals(200, applied.statusCode(), applied.body());
        assertEquals("applied", JSON.readTree(applied.body()).path("result").path("structuredContent").path("state").asText());
        assertEquals("conformance", server.text("SELECT principal FROM operations WHERE operation_id = 'op-profile'"));
    }

    @Test
    void theFixturesAreListedBesideTheGuardedTools() throws Exception {
        JsonNode tools = anonymous.rpc("tools/list", null, JSON.createObjectNode()).path("result").path("tools");
        List<String> names = new ArrayList<>();
        tools.forEach(tool -> names.add(tool.path("name").asText()));
        assertTrue(names.containsAll(List.of("create_guarded_issue", "get_operation_status", "test_simple_text")), names.toString());
        assertTrue(names.containsAll(TOOL_FIXTURES), names.toString());
        JsonNode prompts = anonymous.rpc("prompts/list", null, JSON.createObjectNode()).path("result").path("prompts");
        assertTrue(prompts.toString().contains(PROMPT_FIXTURE), prompts.toString());
    }

    @Test
    void everyMultiRoundFixtureCompletesWithItsSealedState() throws Exception {
        for (String tool : TOOL_FIXTURES) {
            JsonNode complete = roundTrip("tools/call", tool, toolCall(tool));
            assertTrue(complete.path("content").get(0).path("text").isTextual(), tool + ": " + complete);
        }
        JsonNode prompt = roundTrip("prompts/get", PROMPT_FIXTURE, promptGet(PROMPT_FIXTURE));
        assertTrue(prompt.path("messages").isArray() && prompt.path("messages").size() > 0, prompt.toString());
        JsonNode state = roundTrip("tools/call", STATE_FIXTURE, toolCall(STATE_FIXTURE));
        assertTrue(state.path("content").get(0).path("text").asText().contains("state-ok"), state.toString());
    }

    @Test
    void theMultiRoundFixtureSealsANewStateEachRound() throws Exception {
        String tool = "test_input_required_result_multi_round";
        JsonNode first = anonymous.rpc("tools/call", tool, toolCall(tool)).path("result");
        JsonNode second = anonymous.rpc("tools/call", tool, continuation(toolCall(tool), first)).path("result");
        assertEquals("input_required", second.path("resultType").asText(), second.toString());
        assertTrue(second.path("inputRequests").has("step2"), second.toString());
        assertFalse(first.path("requestState").asText().equals(second.path("requestState").asText()));
        // The first round's state still names the first round: answering step 2 with it asks for step 1 again.
        ObjectNode stale = toolCall(tool);
        stale.set("inputResponses", FixtureRequests.answers(second.path("inputRequests")));
        stale.set("requestState", first.path("requestState"));
        JsonNode again = anonymous.rpc("tools/call", tool, stale).path("result");
        assertTrue(again.path("inputRequests").has("step1"), again.toString());
    }

    @Test
    void aCompletedContinuationSentAgainGivesTheSameResult() throws Exception {
        JsonNode first = anonymous.rpc("tools/call", STATE_FIXTURE, toolCall(STATE_FIXTURE)).path("result");
        ObjectNode next = continuation(toolCall(STATE_FIXTURE), first);
        JsonNode once = anonymous.rpc("tools/call", STATE_FIXTURE, next.deepCopy());
        JsonNode twice = anonymous.rpc("tools/call", STATE_FIXTURE, next.deepCopy());
        assertEquals(once.path("result"), twice.path("result"));
        assertEquals("complete", twice.path("result").path("resultType").asText(), twice.toString());
    }

    @Test
    void aTamperedOrTruncatedStateIsRefused() throws Exception {
        JsonNode first = roundOne(STATE_FIXTURE);
        String state = first.path("requestState").asText();
        char last = state.charAt(state.length() - 1);
        String flipped = state.substring(0, state.length() - 1) + (last == 'A' ? 'B' : 'A');
        String middle = state.substring(0, 20) + (state.charAt(20) == 'x' ? 'y' : 'x') + state.substring(21);
        for (String bad : List.of(flipped, middle, state.substring(0, state.length() - 4), state + "-TAMPERED",
                state + "=", "v2." + state.substring(3), "")) {
            assertRefused(withState(STATE_FIXTURE, first, JSON.getNodeFactory().textNode(bad)));
        }
        assertServing();
    }

    @Test
    void aStateOfAnotherFixtureOrOfOtherArgumentsIsRefused() throws Exception {
        JsonNode other = roundOne("test_input_required_result_tampered_state");
        assertRefused(withState(STATE_FIXTURE, other, other.path("requestState")));
        JsonNode first = roundOne(STATE_FIXTURE);
        ObjectNode changed = withState(STATE_FIXTURE, first, first.path("requestState"));
        ((ObjectNode) changed.path("arguments")).put("extra", 1);
        assertRefused(changed);
        // A prompt's state is bound to prompts/get: it does not open for a tool, nor a tool's for the prompt.
        JsonNode prompt = anonymous.rpc("prompts/get", PROMPT_FIXTURE, promptGet(PROMPT_FIXTURE)).path("result");
        assertRefused(withState(STATE_FIXTURE, first, prompt.path("requestState")));
        ObjectNode promptWithToolState = promptGet(PROMPT_FIXTURE);
        promptWithToolState.set("inputResponses", FixtureRequests.answers(prompt.path("inputRequests")));
        promptWithToolState.set("requestState", first.path("requestState"));
        assertFrozenError(anonymous.send("prompts/get", PROMPT_FIXTURE, promptWithToolState));
        // A guarded tool's state does not open for a fixture either.
        JsonNode guarded = JSON.readTree(server.send(server.post(null, "tools/call", "create_guarded_issue",
                HttpServerProcess.roundOne(9, "op-cross", "Cross"))).body()).path("result");
        assertRefused(withState(STATE_FIXTURE, first, guarded.path("requestState")));
        assertServing();
    }

    @Test
    void aNonStringAnOversizedOrAMissingStateIsRefused() throws Exception {
        JsonNode first = roundOne(STATE_FIXTURE);
        assertRefused(withState(STATE_FIXTURE, first, JSON.getNodeFactory().numberNode(12345)));
        assertRefused(withState(STATE_FIXTURE, first, JSON.createObjectNode().put("state", first.path("requestState").asText())));
        assertRefused(withState(STATE_FIXTURE, first, JSON.getNodeFactory().textNode("v1." + "A".repeat(1024 * 1024))));
        ObjectNode missing = toolCall(STATE_FIXTURE);
        missing.set("inputResponses", FixtureRequests.answers(first.path("inputRequests")));
        assertRefused(missing);
        assertServing();
    }

    @Test
    void anExpiredStateIsRefused() throws Exception {
        JsonNode first = roundOne(STATE_FIXTURE);
        // Past the TTL on the real clock: whole seconds, so the state sealed in second t is dead from t + TTL on.
        Thread.sleep(TTL_SECONDS * 1000L + 200);
        assertRefused(withState(STATE_FIXTURE, first, first.path("requestState")));
        assertServing();
    }

    private static JsonNode roundOne(String tool) throws Exception {
        JsonNode result = anonymous.rpc("tools/call", tool, toolCall(tool)).path("result");
        assertEquals("input_required", result.path("resultType").asText(), tool + ": " + result);
        assertTrue(result.path("requestState").asText().startsWith("v1."), result.toString());
        return result;
    }

    /** Round one, then answer every round with its own state until the result is complete. */
    private static JsonNode roundTrip(String method, String name, ObjectNode params) throws Exception {
        JsonNode result = anonymous.rpc(method, name, params.deepCopy()).path("result");
        for (int round = 0; round < 5 && result.path("resultType").asText().equals("input_required"); round++) {
            assertTrue(result.path("requestState").asText().startsWith("v1."), name + ": " + result);
            JsonNode next = anonymous.rpc(method, name, continuation(params, result));
            assertFalse(next.has("error"), name + ": " + next);
            result = next.path("result");
        }
        assertEquals("complete", result.path("resultType").asText(), name + ": " + result);
        return result;
    }

    private static ObjectNode withState(String tool, JsonNode inputRequired, JsonNode state) {
        ObjectNode params = toolCall(tool);
        params.set("inputResponses", FixtureRequests.answers(inputRequired.path("inputRequests")));
        params.set("requestState", state);
        return params;
    }

    private static void assertRefused(ObjectNode params) throws Exception {
        assertFrozenError(anonymous.send("tools/call", params.path("name").asText(), params));
    }

    static void assertFrozenError(HttpResponse<String> response) throws Exception {
        JsonNode error = JSON.readTree(response.body()).path("error");
        assertEquals(-32602, error.path("code").asInt(), response.body());
        assertEquals("Invalid or expired requestState", error.path("message").asText(), response.body());
        assertEquals("invalid_request_state", error.path("data").path("reason").asText(), response.body());
    }

    /** A fresh round trip still completes: no refusal left the server unable to serve. */
    private static void assertServing() throws Exception {
        roundTrip("tools/call", STATE_FIXTURE, toolCall(STATE_FIXTURE));
    }
}
