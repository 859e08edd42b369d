package lab.continuationreplay.server.http;

import static lab.continuationreplay.server.http.HttpServerProcess.ALICE;
import static lab.continuationreplay.server.http.HttpServerProcess.continuation;
import static lab.continuationreplay.server.http.HttpServerProcess.roundOne;
import static lab.continuationreplay.server.http.HttpServerProcess.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP server's fault, its concurrency limit and its refusal to start on bad tokens, each on its own process. */
class HttpFaultsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void closeAfterCommitLosesTheReplyKeepsTheRowAndKeepsServing() throws Exception {
        try (HttpServerProcess server = HttpServerProcess.start(dir, null, Map.of("WIRE_FAULT", "close-after-commit"))) {
            String state = JSON.readTree(server.send(server.post(ALICE, "tools/call", "create_guarded_issue",
                    roundOne(1, "op-lost", "Lost"))).body()).path("result").path("requestState").asText();
            IOException lost = assertThrows(IOException.class, () -> server.send(server.post(ALICE, "tools/call",
                    "create_guarded_issue", continuation(2, "op-lost", "Lost", "B", state))));
            assertFalse(lost instanceof java.net.http.HttpTimeoutException, "closed, not timed out: " + lost);
            assertEquals(1, server.count("SELECT count(*) FROM issues"));
            assertEquals("applied", server.text("SELECT state FROM operations WHERE operation_id = 'op-lost'"));

            HttpResponse<String> answer = server.send(server.post(ALICE, "tools/call", "get_operation_status", status(3, "op-lost")));
            assertEquals(200, answer.statusCode(), answer.body());
            assertTrue(answer.body().contains("applied"), answer.body());
            // The identical continuation is a replay, answered normally: the client recovers the stored result.
            HttpResponse<String> replay = server.send(server.post(ALICE, "tools/call", "create_guarded_issue",
                    continuation(4, "op-lost", "Lost", "B", state)));
            assertTrue(JSON.readTree(replay.body()).path("result").path("structuredContent").path("replayed").asBoolean(), replay.body());
            assertTrue(server.process.isAlive());
        }
    }

    @Test
    void beyondTheConfiguredLimitTheAnswerIs503() throws Exception {
        try (HttpServerProcess server = HttpServerProcess.start(dir, null, Map.of(HttpSettings.MAX_CONCURRENT, "1",
                HttpSettings.READ_TIMEOUT_MS, "3000"))) {
            HttpResponse<String> busy = null;
            // A stalled body can only hold the slot once it got it; if a probe took the slot first, the stalled
            // request was the one refused, so try again with a new one.
            for (int attempt = 0; attempt < 10 && (busy == null || busy.statusCode() != 503); attempt++) {
                try (Socket slow = new Socket("127.0.0.1", server.port)) {
                    // Headers complete, body stalled: the request holds the only slot while the gate waits for its body.
                    slow.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + server.port + "\r\nAuthorization: Bearer "
                            + ALICE + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
                    slow.getOutputStream().flush();
                    Thread.sleep(300);
                    busy = server.send(server.post(ALICE, "tools/call", "get_operation_status", status(1, "op")));
                }
            }
            assertEquals(503, busy.statusCode(), String.join("\n", server.stderr));
            assertEquals("1", busy.headers().firstValue("Retry-After").orElse(""));
        }
    }

    @Test
    void aShortTokenRefusesToStartNamingThePrincipalNotTheToken() throws Exception {
        Path tokens = dir.resolve("tokens.json");
        Files.writeString(tokens, "{\"alice\":\"" + ALICE + "\",\"mallory\":\"short-secret-value\"}");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:+DisplayVMOutputToStderr", "-jar", "target/java-server.jar",
                "--http", "0"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("WIRE_"));
        builder.environment().putAll(HttpServerProcess.environment(dir.resolve("store.sqlite3"), tokens));
        Process process = builder.start();
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(20, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue(), stderr);
        List<String> lines = stderr.lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), stderr);
        assertTrue(lines.get(0).contains("'mallory'"), stderr);
        assertFalse(stderr.contains("short-secret-value") || stderr.contains(ALICE), stderr);
    }

    @Test
    void theUnguardedControlServesHttpToo() throws Exception {
        try (HttpServerProcess server = HttpServerProcess.start(dir, "lab.continuationreplay.server.UnguardedServerMain", Map.of())) {
            String first = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"create_issue\","
                    + "\"arguments\":{\"title\":\"C\"}," + HttpServerProcess.META + "}}";
            JsonNode round = JSON.readTree(server.send(server.post(ALICE, "tools/call", "create_issue", first)).body()).path("result");
            assertEquals("input_required", round.path("resultType").asText(), round.toString());
            String again = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"create_issue\","
                    + "\"arguments\":{\"title\":\"C\"},\"inputResponses\":{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"B\"}}},"
                    + "\"requestState\":\"" + round.path("requestState").asText() + "\"," + HttpServerProcess.META + "}}";
            for (int i = 0; i < 2; i++) {
                assertEquals(200, server.send(server.post(ALICE, "tools/call", "create_issue", again)).statusCode());
            }
            // The control has no ledger: the identical retry is a duplicate, as over stdio.
            assertEquals(2, server.count("SELECT count(*) FROM issues"));
        }
    }
}
