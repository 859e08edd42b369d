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
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

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
        StepScript script = StepScript.parse(script("\"request_timeout_ms\": null,", "{\"op\": \"connect\", \"connection\": \"a\", \"server\": \"crash\"}"));
        assertNull(script.requestTimeout());
    }

    @Test
    void aConnectionMayBeOpenedAgainAfterItsClose() throws ScriptException {
        StepScript.parse(script("""
                {"op": "connect", "connection": "a", "server": "crash"},
                {"op": "close", "connection": "a"},
                {"op": "connect", "connection": "a", "server": "restart"},
                {"op": "list_tools", "connection": "a"}"""));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"op": "frobnicate", "connection": "a"}                          | client-script: step 0: unknown op "frobnicate"
            {"connection": "a"}                                              | client-script: step 0: missing "op"
            {"op": "connect", "connection": "a"}                             | client-script: step 0: connect needs "server"
            {"op": "connect", "server": "crash"}                             | client-script: step 0: connect needs "connection"
            {"op": "connect", "connection": "a", "server": "nope"}           | client-script: step 0: unknown server "nope"
            {"op": "list_tools", "connection": "a"}                          | client-script: step 0: connection "a" is used before connect
            {"op": "connect", "connection": "a", "server": "crash", "x": 1}  | client-script: step 0: connect has no member "x"
            "connect"                                                        | client-script: step 0: not an object
            """)
    void refusesABadFirstStep(String step, String expected) {
        assertEquals(expected, problem(script(step)));
    }

    @Test
    void namesTheStepThatUsesAStateBeforeItIsSaved() {
        assertEquals("client-script: step 1: state \"s1\" is used before a step saves it", problem(script("""
                {"op": "connect", "connection": "a", "server": "crash"},
                {"op": "call_once", "connection": "a", "tool": "t", %s, "state": "s1"},
                {"op": "call_once", "connection": "a", "tool": "t", %1$s, "save_state": "s1"}""".formatted(ARGS))));
    }

    @Test
    void namesTheStepThatMissesAFieldOfItsOp() {
        assertEquals("client-script: step 1: call_once needs \"tool\"", problem(script("""
                {"op": "connect", "connection": "a", "server": "crash"},
                {"op": "call_once", "connection": "a"}""")));
        assertEquals("client-script: step 1: status needs \"operation_id\"", problem(script("""
                {"op": "connect", "connection": "a", "server": "crash"},
                {"op": "status", "connection": "a"}""")));
    }

    @Test
    void refusesAConnectionAfterItsClose() {
        assertEquals("client-script: step 2: connection \"a\" is used after its close at step 1", problem(script("""
                {"op": "connect", "connection": "a", "server": "crash"},
                {"op": "close", "connection": "a"},
                {"op": "list_tools", "connection": "a"}""")));
    }

    @Test
    void refusesASecondConnectOnAnOpenConnection() {
        assertEquals("client-script: step 1: connection \"a\" is already connected", problem(script("""
                {"op": "connect", "connection": "a", "server": "crash"},
                {"op": "connect", "connection": "a", "server": "restart"}""")));
    }

    @Test
    void refusesTypesTheContractDoesNotAllow() {
        String connect = "{\"op\": \"connect\", \"connection\": \"a\", \"server\": \"crash\"},";
        assertEquals("client-script: step 1: \"arguments\" must be an object",
                problem(script(connect + "{\"op\": \"call\", \"connection\": \"a\", \"tool\": \"t\", \"arguments\": []}")));
        assertEquals("client-script: step 2: \"state_transform\" must be \"none\" or \"tamper\"", problem(script(connect
                + "{\"op\": \"call_once\", \"connection\": \"a\", \"tool\": \"t\", \"arguments\": {}, \"save_state\": \"s\"},"
                + "{\"op\": \"call_once\", \"connection\": \"a\", \"tool\": \"t\", \"arguments\": {}, \"state\": \"s\", \"state_transform\": \"flip\"}")));
        assertEquals("client-script: step 1: \"state_transform\" needs \"state\"", problem(script(connect
                + "{\"op\": \"call_once\", \"connection\": \"a\", \"tool\": \"t\", \"arguments\": {}, \"state_transform\": \"tamper\"}")));
        assertEquals("client-script: step 1: \"operation_id\" must be a non-empty string", problem(script(connect
                + "{\"op\": \"status\", \"connection\": \"a\", \"operation_id\": 7}")));
    }

    @Test
    void checksTheStepsOfAParallelStep() {
        String open = """
                {"op": "connect", "connection": "b", "server": "restart"},
                {"op": "call_once", "connection": "b", "tool": "t", "arguments": {}, "save_state": "s"},""";
        assertEquals("client-script: step 2.1: connection \"b\" is used by two steps of one parallel step", problem(script(open + """
                {"op": "parallel", "steps": [
                  {"op": "call_once", "connection": "b", "tool": "t", "arguments": {}, "state": "s"},
                  {"op": "call_once", "connection": "b", "tool": "t", "arguments": {}, "state": "s"}]}""")));
        assertEquals("client-script: step 2.0: connection \"c\" is used before connect", problem(script(open + """
                {"op": "parallel", "steps": [{"op": "list_tools", "connection": "c"}]}""")));
        assertEquals("client-script: step 2.0: a parallel step cannot hold another parallel step", problem(script(open + """
                {"op": "parallel", "steps": [{"op": "parallel", "steps": []}]}""")));
        assertEquals("client-script: step 2: \"steps\" must be a non-empty array", problem(script(open + """
                {"op": "parallel", "steps": []}""")));
        assertEquals("client-script: step 3.1: state \"t\" is used before a step saves it", problem(script(open + """
                {"op": "connect", "connection": "c", "server": "restart"},
                {"op": "parallel", "steps": [
                  {"op": "call_once", "connection": "b", "tool": "t", "arguments": {}, "save_state": "t"},
                  {"op": "call_once", "connection": "c", "tool": "t", "arguments": {}, "state": "t"}]}""")));
    }

    @Test
    void refusesAnotherFormatBeforeAnythingElse() {
        assertEquals("client-script: format: expected \"client-script/1\", got \"client-script/2\"",
                problem("{\"format\": \"client-script/2\", \"steps\": 7}"));
        assertEquals("client-script: format: expected \"client-script/1\", got nothing", problem("{\"steps\": []}"));
    }

    @Test
    void refusesMalformedTopLevelMembers() {
        assertEquals("client-script: request_timeout_ms: must be a positive whole number of milliseconds or null",
                problem(script("\"request_timeout_ms\": 0,", "")));
        assertEquals("client-script: version_mode: must be \"pin\", \"auto\" or \"default\"",
                problem(script("\"version_mode\": \"newest\",", "")));
        assertEquals("client-script: servers.crash: \"command\" must be a non-empty array of strings",
                problem("{\"format\": \"client-script/1\", \"servers\": {\"crash\": {\"command\": []}}, \"steps\": []}"));
        assertEquals("client-script: extra: unknown member",
                problem("{\"format\": \"client-script/1\", \"extra\": 1, \"servers\": {}, \"steps\": []}"));
        assertEquals("client-script: script: not a JSON object", problem("[]"));
    }

    @Test
    void refusesDuplicateMembers() {
        String message = problem("{\"format\": \"client-script/1\", \"format\": \"client-script/1\"}");
        assertEquals("client-script: script: not a JSON document", message.substring(0, message.indexOf(" (")));
    }

    private static final String TOKEN = "web-token-0123456789abcdef0123456789abcdef";
    private static final Map<String, String> TOKEN_ENV = Map.of("LAB_WEB_TOKEN", TOKEN);

    private static String httpScript(String server) {
        return """
                {"format": "client-script/1", "servers": {"web": %s}, "request_timeout_ms": 5000,
                 "steps": [{"op": "connect", "connection": "a", "server": "web"}]}""".formatted(server);
    }

    private static String httpServer(String url) {
        return "{\"url\": \"" + url + "\", \"bearer_token_env\": \"LAB_WEB_TOKEN\"}";
    }

    private static String httpProblem(String server, Map<String, String> environment) {
        String message = assertThrows(ScriptException.class, () -> StepScript.parse(httpScript(server), environment)).getMessage();
        assertFalse(message.contains(TOKEN), "a message never holds the token: " + message);
        return message;
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

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            http://example.com/mcp                 | "url" must name a loopback host (127.0.0.1, localhost or [::1]), not example.com
            http://127.0.0.2:8080/mcp              | "url" must name a loopback host (127.0.0.1, localhost or [::1]), not 127.0.0.2
            http://127.1:8080/mcp                  | "url" must name a loopback host (127.0.0.1, localhost or [::1])
            http://[::2]:8080/mcp                  | "url" must name a loopback host (127.0.0.1, localhost or [::1]), not [::2]
            http://localhost.example.com/mcp       | "url" must name a loopback host (127.0.0.1, localhost or [::1]), not localhost.example.com
            http://u:pw@exa_mple/mcp               | "url" must name a loopback host (127.0.0.1, localhost or [::1])
            https://127.0.0.1:8080/mcp             | "url" must be an http:// URL
            /mcp                                   | "url" must be an http:// URL
            http://alice:secret@127.0.0.1:8080/mcp | "url" must not carry user information
            http://127.0.0.1:0/mcp                 | "url" has port 0, outside 1..65535
            http://127.0.0.1:65536/mcp             | "url" has port 65536, outside 1..65535
            http://127.0.0.1:8080/a b              | "url" is not a URL
            """)
    void refusesAnHttpServerThatIsNotOnLoopback(String url, String problem) {
        String message = httpProblem(httpServer(url), TOKEN_ENV);
        assertEquals("client-script: servers.web: " + problem, message);
        assertFalse(message.contains("secret") || message.contains("pw"), "a URL's password is never repeated: " + message);
    }

    @Test
    void refusesAnHttpServerWhoseTokenIsMissingOrUnusableNamingTheVariableNeverTheValue() throws ScriptException {
        String server = httpServer("http://127.0.0.1:8080/mcp");
        assertEquals("client-script: servers.web: bearer_token_env LAB_WEB_TOKEN is not set in the driver's environment",
                httpProblem(server, Map.of("OTHER", TOKEN)));
        assertEquals("client-script: servers.web: bearer_token_env LAB_WEB_TOKEN holds a token shorter than 32 characters",
                httpProblem(server, Map.of("LAB_WEB_TOKEN", TOKEN.substring(0, 31))));
        assertEquals("client-script: servers.web: bearer_token_env LAB_WEB_TOKEN holds a token shorter than 32 characters",
                httpProblem(server, Map.of("LAB_WEB_TOKEN", "")));
        assertEquals("client-script: servers.web: bearer_token_env LAB_WEB_TOKEN holds a character other than printable ASCII (no spaces)",
                httpProblem(server, Map.of("LAB_WEB_TOKEN", TOKEN + " ")));
        assertEquals("client-script: servers.web: bearer_token_env LAB_WEB_TOKEN holds a character other than printable ASCII (no spaces)",
                httpProblem(server, Map.of("LAB_WEB_TOKEN", TOKEN + "\r\nX-Injected: 1")));
        StepScript.parse(httpScript(server), Map.of("LAB_WEB_TOKEN", TOKEN.substring(0, 32)));
    }

    @Test
    void refusesAnHttpServerWithStdioMembersOrWithoutItsOwn() {
        assertEquals("client-script: servers.web: \"bearer_token_env\" must name an environment variable of the driver",
                httpProblem("{\"url\": \"http://127.0.0.1:8080/mcp\"}", TOKEN_ENV));
        assertEquals("client-script: servers.web: \"bearer_token_env\" must name an environment variable of the driver",
                httpProblem("{\"url\": \"http://127.0.0.1:8080/mcp\", \"bearer_token_env\": 7}", TOKEN_ENV));
        assertEquals("client-script: servers.web: unknown member \"command\"",
                httpProblem("{\"url\": \"http://127.0.0.1:8080/mcp\", \"bearer_token_env\": \"LAB_WEB_TOKEN\", \"command\": [\"x\"]}", TOKEN_ENV));
        assertEquals("client-script: servers.web: unknown member \"env\"",
                httpProblem("{\"url\": \"http://127.0.0.1:8080/mcp\", \"bearer_token_env\": \"LAB_WEB_TOKEN\", \"env\": {}}", TOKEN_ENV));
        assertEquals("client-script: servers.web: \"url\" must be a non-empty string",
                httpProblem("{\"url\": null, \"bearer_token_env\": \"LAB_WEB_TOKEN\"}", TOKEN_ENV));
    }

    @Test
    void tampersTheMiddleCharacterAsTheSeedDid() {
        assertEquals("abAde", StateTransform.TAMPER.apply("abcde"));
        assertEquals("abBde", StateTransform.TAMPER.apply("abAde"));
        assertEquals("abAd", StateTransform.TAMPER.apply("abcd"));
        assertEquals("same", StateTransform.NONE.apply("same"));
    }
}
