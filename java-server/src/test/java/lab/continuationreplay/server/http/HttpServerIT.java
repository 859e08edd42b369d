package lab.continuationreplay.server.http;

import static lab.continuationreplay.server.http.HttpServerProcess.ALICE;
import static lab.continuationreplay.server.http.HttpServerProcess.BOB;
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
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The guarded server over Streamable HTTP, as a real process on a real loopback socket. */
class HttpServerIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int READ_TIMEOUT_MS = 1500;

    @TempDir
    static Path dir;
    static HttpServerProcess server;

    @BeforeAll
    static void start() throws Exception {
        server = HttpServerProcess.start(dir.resolve("guarded"), null,
                Map.of(HttpSettings.READ_TIMEOUT_MS, Integer.toString(READ_TIMEOUT_MS)));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void aFullContinuationIsAppliedOnceAndReplayedOverHttp() throws Exception {
        HttpResponse<String> first = server.send(server.post(ALICE, "tools/call", "create_guarded_issue", roundOne(1, "op-flow", "Flow")));
        assertEquals(200, first.statusCode(), first.body());
        assertTrue(first.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), "JSON, not SSE");
        JsonNode round = JSON.readTree(first.body()).path("result");
        assertEquals("input_required", round.path("resultType").asText());
        String state = round.path("requestState").asText();
        assertTrue(state.startsWith("v1."));

        JsonNode applied = result(server.send(server.post(ALICE, "tools/call", "create_guarded_issue",
                continuation(2, "op-flow", "Flow", "the body", state))));
        assertEquals("applied", applied.path("structuredContent").path("state").asText());
        assertFalse(applied.path("structuredContent").path("replayed").asBoolean());

        JsonNode replayed = result(server.send(server.post(ALICE, "tools/call", "create_guarded_issue",
                continuation(3, "op-flow", "Flow", "the body", state))));
        assertTrue(replayed.path("structuredContent").path("replayed").asBoolean());
        assertEquals(applied.path("structuredContent").path("effectId"), replayed.path("structuredContent").path("effectId"));
        assertEquals(1, server.count("SELECT count(*) FROM operations WHERE operation_id = 'op-flow'"));
        // The ledger names the token's principal, never the token.
        assertEquals("alice", server.text("SELECT principal FROM operations WHERE operation_id = 'op-flow'"));
    }

    @Test
    void noOrAnUnknownTokenIsRefused401WithoutEffect() throws Exception {
        long before = server.count("SELECT count(*) FROM issues");
        for (String token : new String[] {null, "not-a-known-token-0123456789abcdefghij"}) {
            String state = "v1.AAAA";
            HttpResponse<String> refused = server.send(server.post(token, "tools/call", "create_guarded_issue",
                    continuation(1, "op-401", "T", "B", state)));
            assertEquals(401, refused.statusCode());
            assertEquals("Bearer realm=\"mcp\"", refused.headers().firstValue("WWW-Authenticate").orElse(""));
        }
        assertEquals(before, server.count("SELECT count(*) FROM issues"));
    }

    @Test
    void aForeignHostOrOriginIsRefused403() throws Exception {
        String body = roundOne(1, "op-403", "T");
        assertEquals(403, rawStatus("POST /mcp HTTP/1.1\r\nHost: evil.example:" + server.port + "\r\nAuthorization: Bearer " + ALICE
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body));
        HttpResponse<String> origin = server.send(server.post(ALICE, "tools/call", "create_guarded_issue", body)
                .header("Origin", "http://evil.example"));
        assertEquals(403, origin.statusCode());
        HttpResponse<String> ownOrigin = server.send(server.post(ALICE, "tools/call", "create_guarded_issue", body)
                .header("Origin", "http://localhost:" + server.port));
        assertEquals(200, ownOrigin.statusCode(), ownOrigin.body());
    }

    @Test
    void aBodyOver4MiBIsRefused413() throws Exception {
        long before = server.count("SELECT count(*) FROM issues");
        int length = 4 * 1024 * 1024 + 1;
        assertEquals(413, rawStatus("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + server.port + "\r\nAuthorization: Bearer " + ALICE
                + "\r\nContent-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n{\"jsonrpc\":\"2.0\""));
        assertEquals(before, server.count("SELECT count(*) FROM issues"));
    }

    @Test
    void aBodyThatIsNotAJsonRpcObjectIsRefused400() throws Exception {
        for (String body : new String[] {"[1,2]", "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"tools/call\"}", "{\"jsonrpc\":\"2.0\"}}", ""}) {
            HttpResponse<String> refused = server.send(server.post(ALICE, "tools/call", "create_guarded_issue", body));
            assertEquals(400, refused.statusCode(), body);
            int code = JSON.readTree(refused.body()).path("error").path("code").asInt();
            assertTrue(code == -32700 || code == -32600, refused.body());
        }
    }

    @Test
    void anotherPrincipalCannotUseAlicesState() throws Exception {
        String state = JSON.readTree(server.send(server.post(ALICE, "tools/call", "create_guarded_issue",
                roundOne(1, "op-bob", "Shared"))).body()).path("result").path("requestState").asText();
        HttpResponse<String> refused = server.send(server.post(BOB, "tools/call", "create_guarded_issue",
                continuation(2, "op-bob", "Shared", "B", state)));
        JsonNode error = JSON.readTree(refused.body()).path("error");
        assertEquals(-32602, error.path("code").asInt(), refused.body());
        assertEquals("invalid_request_state", error.path("data").path("reason").asText());
        assertEquals(0, server.count("SELECT count(*) FROM operations WHERE operation_id = 'op-bob'"));
    }

    @Test
    void twentyConcurrentIdenticalContinuationsMakeOneIssue() throws Exception {
        String state = JSON.readTree(server.send(server.post(ALICE, "tools/call", "create_guarded_issue",
                roundOne(1, "op-race", "Race"))).body()).path("result").path("requestState").asText();
        long before = server.count("SELECT count(*) FROM issues");
        ExecutorService pool = Executors.newFixedThreadPool(20);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> replies = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int id = 10 + i;
            replies.add(pool.submit(() -> {
                go.await();
                return server.send(server.post(ALICE, "tools/call", "create_guarded_issue",
                        continuation(id, "op-race", "Race", "B", state)));
            }));
        }
        go.countDown();
        int applied = 0;
        for (Future<HttpResponse<String>> reply : replies) {
            HttpResponse<String> response = reply.get();
            assertTrue(response.statusCode() != 503, "no 503 at 20 concurrent requests");
            JsonNode body = JSON.readTree(response.body());
            if (body.path("result").path("structuredContent").path("state").asText().equals("applied")) {
                applied++;
            }
        }
        pool.shutdown();
        assertTrue(applied >= 1, "at least one reply carries the result");
        assertEquals(before + 1, server.count("SELECT count(*) FROM issues"));
        assertEquals(1, server.count("SELECT count(*) FROM operations WHERE operation_id = 'op-race'"));
    }

    @Test
    void aStalledClientDoesNotBlockOthersAndIsCutOff() throws Exception {
        try (Socket stalled = new Socket("127.0.0.1", server.port)) {
            stalled.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + server.port + "\r\nContent-Ty")
                    .getBytes(StandardCharsets.US_ASCII));
            stalled.getOutputStream().flush();
            long start = System.nanoTime();
            HttpResponse<String> normal = server.send(server.post(ALICE, "tools/call", "get_operation_status", status(1, "op-none")));
            assertEquals(200, normal.statusCode(), normal.body());
            assertTrue(System.nanoTime() - start < 1_000_000_000L * READ_TIMEOUT_MS / 1000, "answered while a client stalls");
            stalled.setSoTimeout(READ_TIMEOUT_MS * 4);
            long cut = System.nanoTime();
            InputStream in = stalled.getInputStream();
            // The server closes it after the read timeout, perhaps after a 408 or 400 it may write first.
            while (in.read() >= 0) {
                // drain
            }
            assertTrue(System.nanoTime() - cut < 1_000_000L * READ_TIMEOUT_MS * 3);
        }
    }

    @Test
    void errorsOutsideTheGateNameNoServerAndNoVersion() throws Exception {
        String host = "Host: 127.0.0.1:" + server.port + "\r\n";
        String token = "Authorization: Bearer " + ALICE + "\r\n";
        // A path Tomcat maps to nothing, a GET the SDK refuses with sendError, a URI Tomcat cannot decode.
        Map<String, String> probes = Map.of(
                "GET /nope HTTP/1.1\r\n" + host, "404",
                "GET /mcp HTTP/1.1\r\n" + host + token, "405",
                "GET /%zz HTTP/1.1\r\n" + host, "400");
        for (Map.Entry<String, String> probe : probes.entrySet()) {
            String reply = rawReply(probe.getKey() + "Connection: close\r\n\r\n");
            String status = reply.substring(9, 12);
            assertEquals(probe.getValue(), status, reply);
            String head = reply.substring(0, reply.indexOf("\r\n\r\n"));
            String body = reply.substring(head.length() + 4);
            assertFalse(reply.toLowerCase(java.util.Locale.ROOT).contains("tomcat"), reply);
            assertFalse(reply.toLowerCase(java.util.Locale.ROOT).contains("\r\nserver:"), reply);
            String afterStatusLine = reply.substring(reply.indexOf("\r\n"));
            assertFalse(java.util.regex.Pattern.compile("[0-9]+\\.[0-9]+").matcher(afterStatusLine).find(), "a version number: " + reply);
            assertTrue(head.contains("Content-Type: text/plain"), reply);
            assertEquals(PlainErrorReport.text(Integer.parseInt(status)) + "\n", body, reply);
        }
        assertEquals("not found", PlainErrorReport.text(404));
    }

    static JsonNode result(HttpResponse<String> response) throws IOException {
        assertEquals(200, response.statusCode(), response.body());
        JsonNode result = JSON.readTree(response.body()).path("result");
        assertEquals("complete", result.path("resultType").asText(), response.body());
        return result;
    }

    /** Sends raw bytes and reads everything the server sends until it closes the connection. */
    private String rawReply(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Sends raw bytes (a header HttpClient would not let us set, or a body it would insist on sending) and reads the status. */
    private int rawStatus(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            String statusLine = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertTrue(statusLine.startsWith("HTTP/1.1 "), statusLine);
            return Integer.parseInt(statusLine.substring(9, 12));
        }
    }

    @Test
    void theUrlIsLoopbackAndStdoutStaysEmpty() throws Exception {
        assertEquals("127.0.0.1", server.uri.getHost());
        assertThrows(IOException.class, () -> {
            try (Socket other = new Socket(java.net.InetAddress.getByName("::1"), server.port)) {
                other.getOutputStream().write(1);
            }
        });
        assertEquals(0, java.nio.file.Files.size(dir.resolve("guarded").resolve("stdout.txt")));
    }
}
