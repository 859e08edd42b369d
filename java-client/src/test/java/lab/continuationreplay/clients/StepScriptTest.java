package lab.continuationreplay.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a read script holds, and the checks only the Java driver makes. Every refusal the four drivers share is a case
 * of vectors/rules/client-script.json ({@link ClientScriptRulesTest}).
 */
class StepScriptTest {
    private static final String ARGS = "\"arguments\": {\"operation_id\": \"o\", \"title\": \"t\", \"mode\": \"atomic\"}";
    private static final String RESPONSES = "\"input_responses\": {\"body\": {\"action\": \"accept\", \"content\": {\"body\": \"alpha\"}}}";

    private static String script(String steps) {
        return script("\"request_timeout_ms\": 5000, \"version_mode\": \"pin\",", steps);
    }

    private static String script(String options, String steps) {
        return """
                {"format": "client-script/1",
                 "servers": {"crash": {"command": ["java", "-jar", "server.jar"], "env": {"WIRE_FAULT": "drop-after-commit"}},
                             "restart": {"command": ["node", "server.js"], "env": {}}},
                 %s
                 "steps": [%s]}""".formatted(options, steps);
    }

    private static String problem(String text) {
        return assertThrows(ScriptException.class, () -> StepScript.parse(text)).getMessage();
    }

    @Test
    void readsEveryOpOfTheContract() throws ScriptException {
        StepScript script = StepScript.parse(script("""
                {"op": "connect", "connection": "a", "server": "crash"},
                {"op": "list_tools", "connection": "a"},
                {"op": "call", "connection": "a", "tool": "create_guarded_issue", %1$s, "answer": {"body": "alpha"}},
                {"op": "call_once", "connection": "a", "tool": "create_guarded_issue", %1$s, "save_state": "s1"},
                {"op": "call_once", "connection": "a", "tool": "create_guarded_issue", %1$s, %2$s, "state": "s1", "state_transform": "tamper"},
                {"op": "status", "connection": "a", "operation_id": "o"},
                {"op": "connect", "connection": "b", "server": "restart"},
                {"op": "connect", "connection": "c", "server": "restart"},
                {"op": "parallel", "steps": [
                    {"op": "call_once", "connection": "b", "tool": "create_guarded_issue", %1$s, %2$s, "state": "s1", "ts_api": "request"},
                    {"op": "call_once", "connection": "c", "tool": "create_guarded_issue", %1$s, %2$s, "state": "s1"}]},
                {"op": "close", "connection": "a"}
                """.formatted(ARGS, RESPONSES)));

        assertEquals(Duration.ofMillis(5000), script.requestTimeout());
        ServerSpec.Stdio crash = (ServerSpec.Stdio) script.servers().get("crash");
        assertEquals(List.of("java", "-jar", "server.jar"), crash.command());
        assertEquals(Map.of("WIRE_FAULT", "drop-after-commit"), crash.env());
        assertEquals("stdio", crash.transport());
        assertEquals(10, script.steps().size());
        Step tampered = script.steps().get(4);
        assertEquals(Op.CALL_ONCE, tampered.op());
        assertEquals(StateTransform.TAMPER, tampered.stateTransform());
        assertEquals("alpha", tampered.inputResponses().at("/body/content/body").asText());
        assertEquals(StateTransform.NONE, script.steps().get(8).inner().get(0).stateTransform());
        assertEquals("8.1", script.steps().get(8).inner().get(1).id().toString());
        assertEquals("\"8.1\"", script.steps().get(8).inner().get(1).id().toJson().toString());
        assertEquals("8", script.steps().get(8).id().toJson().toString());
        assertNull(script.steps().get(3).state());
    }

    @Test
    void aNullTimeoutLeavesTheSdkDefault() throws ScriptException {
        StepScript script = StepScript.parse(script("\"request_timeout_ms\": null, \"version_mode\": \"pin\",", "{\"op\": \"connect\", \"connection\": \"a\", \"server\": \"crash\"}"));
        assertNull(script.requestTimeout());
    }

    /** Java only: the other drivers' JSON readers take the last of duplicate members, so the table has no such case. */
    @Test
    void refusesDuplicateMembers() {
        String message = problem("{\"format\": \"client-script/1\", \"format\": \"client-script/1\"}");
        assertEquals("script error: not JSON", message.substring(0, message.indexOf(" (")));
    }

    /** Java only: the other drivers keep whichever sibling's state comes last, so which one is kept would be chance. */
    @Test
    void refusesAStateSavedByTwoStepsOfOneParallelStep() {
        assertEquals("script error: step 2.1 (call_once): state \"s\" is already saved by step 2.0 of this parallel step",
                problem(script("""
                        {"op": "connect", "connection": "a", "server": "crash"},
                        {"op": "connect", "connection": "b", "server": "restart"},
                        {"op": "parallel", "steps": [
                          {"op": "call_once", "connection": "a", "tool": "t", "arguments": {}, "save_state": "s"},
                          {"op": "call_once", "connection": "b", "tool": "t", "arguments": {}, "save_state": "s"}]}""")));
    }

    private static final String TOKEN = "web-token-0123456789abcdef0123456789abcdef";
    private static final Map<String, String> TOKEN_ENV = Map.of("LAB_WEB_TOKEN", TOKEN);

    private static String httpScript(String server) {
        return """
                {"format": "client-script/1", "servers": {"web": %s}, "request_timeout_ms": 5000,
                 "version_mode": "pin", "steps": [{"op": "connect", "connection": "a", "server": "web"}]}""".formatted(server);
    }

    private static String httpServer(String url) {
        return "{\"url\": \"" + url + "\", \"bearer_token_env\": \"LAB_WEB_TOKEN\"}";
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:8080/mcp", "http://localhost:1/mcp", "http://LOCALHOST/mcp", "http://[::1]:65535/mcp"})
    void readsAnHttpServerOnALoopbackUrlWithItsTokenFromTheEnvironment(String url) throws ScriptException {
        StepScript script = StepScript.parse(httpScript(httpServer(url)), TOKEN_ENV);

        ServerSpec.Http web = (ServerSpec.Http) script.servers().get("web");
        assertEquals(url, web.url().toString());
        assertEquals("LAB_WEB_TOKEN", web.tokenEnv());
        assertEquals(TOKEN, web.token());
        assertEquals("http", web.transport());
        assertFalse(web.toString().contains(TOKEN), web::toString);
    }

    @Test
    void tampersTheMiddleCharacterAsTheSeedDid() {
        assertEquals("abAde", StateTransform.TAMPER.apply("abcde"));
        assertEquals("abBde", StateTransform.TAMPER.apply("abAde"));
        assertEquals("abAd", StateTransform.TAMPER.apply("abcd"));
        assertEquals("same", StateTransform.NONE.apply("same"));
    }
}
