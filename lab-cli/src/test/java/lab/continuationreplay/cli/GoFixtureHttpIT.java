package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Go fixture's HTTP mode as a process ({@code go-fixture --http 0}, as the matrix starts it), spoken to with raw HTTP/1.1 on
 * real sockets: every refusal of the contract (docs/http.md) has no effect, a state minted for alice is refused for
 * bob, alice's guarded commit applies once, and SIGTERM ends the server and its bridge children with status 0.
 */
class GoFixtureHttpIT {
    private static final String ALICE = "alice-token-0123456789abcdef0123456789abcdef";
    private static final String BOB = "bob-token-0123456789abcdef0123456789abcdef00";
    private static final Pattern URL = Pattern.compile("serving (http://127\\.0\\.0\\.1:(\\d+)/mcp)");
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}}}";
    private static final String ARGS = "{\"operation_id\":\"go-http-1\",\"title\":\"T\"}";

    @TempDir
    static Path dir;
    static Process server;
    static int port;
    static final StringBuffer stderr = new StringBuffer();

    @BeforeAll
    static void start() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.json"), "{\"alice\":\"" + ALICE + "\",\"bob\":\"" + BOB + "\"}");
        Map<String, String> environment = new HashMap<>(WireSettings.matrix(dir.resolve("go.sqlite3"), "unused").environment());
        environment.remove("WIRE_PRINCIPAL");
        environment.put("WIRE_BEARER_TOKENS_FILE", tokens.toString());
        // The binary itself, as the matrix starts it (its exit status is the fixture's own; `lab server go --http`
        // is LabServerHttpIT's), with the bridge command the lab hands it.
        List<String> command = new ArrayList<>(ServerKind.GO.command(LabProcess.home()));
        command.addAll(List.of("--http", "0"));
        environment.putAll(ServerKind.GO.environment(LabProcess.home()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(environment);
        server = builder.start();
        BufferedReader lines = new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
        for (String line; (line = lines.readLine()) != null; ) {
            stderr.append(line).append('\n');
            Matcher serving = URL.matcher(line);
            if (serving.find()) {
                port = Integer.parseInt(serving.group(2));
                Thread drain = new Thread(() -> lines.lines().forEach(l -> stderr.append(l).append('\n')));
                drain.setDaemon(true);
                drain.start();
                return;
            }
        }
        throw new AssertionError("the Go fixture ended without serving:\n" + stderr);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null && server.isAlive()) {
            server.descendants().forEach(ProcessHandle::destroyForcibly);
            server.destroyForcibly();
        }
    }

    record Reply(int status, String head, String body) { }

    /** One request on its own connection, written byte for byte, and the whole response. */
    static Reply send(String head, byte[] body) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write((head + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int split = text.indexOf("\r\n\r\n");
            String responseHead = text.substring(0, split);
            String responseBody = text.substring(split + 4);
            int status = Integer.parseInt(responseHead.substring(9, 12));
            return new Reply(status, responseHead, responseBody);
        }
    }

    static String head(String path, String host, String token, String tool, int length) {
        StringBuilder h = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
        h.append("Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n");
        h.append("MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: ").append(tool).append("\r\n");
        if (token != null) {
            h.append("Authorization: Bearer ").append(token).append("\r\n");
        }
        return h.append("Content-Length: ").append(length).append("\r\n").toString();
    }

    static Reply post(String token, String tool, String body) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return send(head("/mcp", "127.0.0.1:" + port, token, tool, bytes.length), bytes);
    }

    static String call(int id, String tool, String arguments, String extra) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":"
                + arguments + extra + "," + META + "}}";
    }

    static String statusOf(String token) throws Exception {
        Reply r = post(token, "get_operation_status", call(9, "get_operation_status", "{\"operation_id\":\"go-http-1\"}", ""));
        assertEquals(200, r.status(), r.body());
        return ExactJson.parse(r.body()).path("result").path("structuredContent").path("state").asText();
    }

    @Test
    void everyRefusalHasItsStatusAndNoEffectThenAliceCommitsOnceAndBobCannotUseHerState() throws Exception {
        String status = call(1, "get_operation_status", "{\"operation_id\":\"go-http-1\"}", "");
        byte[] statusBytes = status.getBytes(StandardCharsets.UTF_8);
        Reply foreign = send(head("/mcp", "evil.example", ALICE, "get_operation_status", statusBytes.length), statusBytes);
        assertEquals(403, foreign.status(), foreign.body());
        Reply path = send(head("/other", "127.0.0.1:" + port, ALICE, "get_operation_status", statusBytes.length), statusBytes);
        assertEquals(404, path.status(), path.body());
        Reply anonymous = post(null, "get_operation_status", status);
        assertEquals(401, anonymous.status());
        assertTrue(anonymous.head().contains("\r\nWww-Authenticate: Bearer\r\n"), anonymous.head());
        Reply unknown = post(ALICE + "x", "get_operation_status", status);
        assertEquals(401, unknown.status());
        assertTrue(unknown.head().contains("Www-Authenticate: Bearer error=\"invalid_token\""), unknown.head());
        Reply tooLarge = send(head("/mcp", "127.0.0.1:" + port, ALICE, "create_guarded_issue", 4 * 1024 * 1024 + 1), new byte[0]);
        assertEquals(413, tooLarge.status(), tooLarge.body());
        Reply notUtf8 = send(head("/mcp", "127.0.0.1:" + port, ALICE, "get_operation_status", 3), new byte[] {'{', (byte) 0xff, '}'});
        assertEquals(400, notUtf8.status());
        assertEquals("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}", notUtf8.body());
        Reply noVersion = post(ALICE, "create_guarded_issue", "{\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"create_guarded_issue\"}}");
        assertEquals(400, noVersion.status());
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}", noVersion.body());

        Reply first = post(ALICE, "create_guarded_issue", call(2, "create_guarded_issue", ARGS, ""));
        assertEquals(200, first.status(), first.body());
        JsonNode round = ExactJson.parse(first.body()).path("result");
        assertEquals("input_required", round.path("resultType").asText(), first.body());
        String state = round.path("requestState").asText();
        String continuation = call(3, "create_guarded_issue", ARGS,
                ",\"inputResponses\":{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"b\"}}},\"requestState\":\"" + state + "\"");
        Reply stolen = post(BOB, "create_guarded_issue", continuation);
        assertEquals(400, stolen.status(), stolen.body());
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"Invalid or expired requestState\","
                + "\"data\":{\"reason\":\"invalid_request_state\"}}}", stolen.body());
        assertEquals("unknown", statusOf(ALICE), "no refused request had an effect");

        Reply applied = post(ALICE, "create_guarded_issue", continuation);
        assertEquals(200, applied.status(), applied.body());
        JsonNode result = ExactJson.parse(applied.body()).path("result").path("structuredContent");
        assertEquals("applied", result.path("state").asText(), applied.body());
        assertFalse(result.path("replayed").asBoolean(), applied.body());
        Reply again = post(ALICE, "create_guarded_issue", continuation);
        assertTrue(ExactJson.parse(again.body()).path("result").path("structuredContent").path("replayed").asBoolean(), again.body());
        assertEquals("applied", statusOf(ALICE));
        assertEquals("unknown", statusOf(BOB), "bob's bridge answers for bob");
        assertFalse(stderr.toString().contains(ALICE) || stderr.toString().contains(BOB), "a token reached stderr");

        // SIGTERM: the server and every bridge child end, status 0.
        List<ProcessHandle> children = server.children().toList();
        assertEquals(2, children.size(), "one bridge each for alice and bob: " + children);
        server.destroy(); // SIGTERM
        assertTrue(server.waitFor(20, TimeUnit.SECONDS));
        assertEquals(0, server.exitValue(), stderr.toString());
        for (ProcessHandle child : children) {
            child.onExit().get(10, TimeUnit.SECONDS);
            assertFalse(child.isAlive());
        }
    }
}
