package lab.continuationreplay.server.http;

import static lab.continuationreplay.server.http.FixtureRequests.JSON;
import static lab.continuationreplay.server.http.FixtureRequests.continuation;
import static lab.continuationreplay.server.http.FixtureRequests.toolCall;
import static lab.continuationreplay.server.http.HttpServerProcess.ALICE;
import static lab.continuationreplay.server.http.HttpServerProcess.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The switch itself: off by default (no fixture, bearer required), with a tokens file the profile authenticates as
 * normal HTTP mode does and binds fixture states to the principal, and every wrong use stops the server with exit 2
 * and one line on stderr.
 */
class ConformanceSwitchIT {
    static final String STATE_FIXTURE = "test_input_required_result_request_state";

    @TempDir
    Path dir;

    @Test
    void withoutTheSwitchNoFixtureIsServedAndABearerTokenIsRequired() throws Exception {
        try (HttpServerProcess server = HttpServerProcess.start(dir.resolve("plain"), null, Map.of())) {
            FixtureRequests alice = new FixtureRequests(server, ALICE);
            JsonNode tools = alice.rpc("tools/list", null, JSON.createObjectNode()).path("result").path("tools");
            List<String> names = new ArrayList<>();
            tools.forEach(tool -> names.add(tool.path("name").asText()));
            assertEquals(List.of("create_guarded_issue", "get_operation_status"), names);
            assertTrue(names.stream().noneMatch(name -> name.startsWith("test_")), names.toString());
            assertEquals(-32601, alice.rpc("prompts/list", null, JSON.createObjectNode()).path("error").path("code").asInt());
            assertEquals(-32601, alice.rpc("resources/list", null, JSON.createObjectNode()).path("error").path("code").asInt());
            HttpResponse<String> anonymous = new FixtureRequests(server, null).send("tools/call", STATE_FIXTURE,
                    toolCall(STATE_FIXTURE));
            assertEquals(401, anonymous.statusCode(), anonymous.body());
            assertFalse(server.stderrText().contains("conformance"), server.stderrText());
        }
    }

    @Test
    void withATokensFileTheProfileRequiresABearerTokenAndBindsStatesToItsPrincipal() throws Exception {
        try (HttpServerProcess server = HttpServerProcess.start(dir.resolve("tokens"), List.of(), null,
                List.of("--conformance"), true, Map.of())) {
            HttpResponse<String> anonymous = new FixtureRequests(server, null).send("tools/call", STATE_FIXTURE,
                    toolCall(STATE_FIXTURE));
            assertEquals(401, anonymous.statusCode(), anonymous.body());
            assertTrue(anonymous.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));

            FixtureRequests alice = new FixtureRequests(server, ALICE);
            FixtureRequests bob = new FixtureRequests(server, BOB);
            JsonNode first = alice.rpc("tools/call", STATE_FIXTURE, toolCall(STATE_FIXTURE)).path("result");
            assertEquals("input_required", first.path("resultType").asText(), first.toString());
            ConformanceProfileIT.assertFrozenError(bob.send("tools/call", STATE_FIXTURE,
                    continuation(toolCall(STATE_FIXTURE), first)));
            JsonNode done = alice.rpc("tools/call", STATE_FIXTURE, continuation(toolCall(STATE_FIXTURE), first));
            assertTrue(done.path("result").path("content").get(0).path("text").asText().contains("state-ok"), done.toString());
            assertFalse(server.stderrText().contains("fixed principal"), server.stderrText());
            assertFalse(server.stderrText().contains(ALICE) || server.stderrText().contains(BOB));
        }
    }

    @Test
    void theSwitchWithoutHttpStopsTheServer() throws Exception {
        assertStopsWithOneLine(List.of("--conformance"), Map.of(), null, "--conformance needs --http");
    }

    @Test
    void aStateTtlThatIsNotAPositiveIntegerStopsTheServer() throws Exception {
        for (String ttl : List.of("0", "1.5")) {
            assertStopsWithOneLine(List.of("--http", "0", "--conformance"), Map.of("WIRE_CONFORMANCE_STATE_TTL", ttl),
                    null, "WIRE_CONFORMANCE_STATE_TTL must be a positive integer");
        }
    }

    @Test
    void theUnguardedControlHasNoProfile() throws Exception {
        assertStopsWithOneLine(List.of("--http", "0", "--conformance"), Map.of(),
                "lab.continuationreplay.server.UnguardedServerMain", "conformance profile");
    }

    private void assertStopsWithOneLine(List<String> args, Map<String, String> extraEnv, String mainClass, String expected)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:+DisplayVMOutputToStderr"));
        command.addAll(mainClass == null ? List.of("-jar", "target/java-server.jar")
                : List.of("-cp", "target/java-server.jar", mainClass));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("WIRE_"));
        // No tokens file: the profile's own checks must not depend on one.
        Map<String, String> env = HttpServerProcess.environment(dir.resolve("store.sqlite3"), dir.resolve("tokens.json"));
        env.remove("WIRE_BEARER_TOKENS_FILE");
        builder.environment().putAll(env);
        builder.environment().putAll(extraEnv);
        Process process = builder.start();
        process.getOutputStream().close();
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(20, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue(), stderr);
        List<String> lines = stderr.lines().filter(line -> !line.isBlank()).toList();
        assertEquals(1, lines.size(), stderr);
        assertTrue(lines.get(0).contains(expected), stderr);
        assertEquals("", stdout);
    }
}
