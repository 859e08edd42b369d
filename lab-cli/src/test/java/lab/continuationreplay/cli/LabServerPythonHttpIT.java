package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
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
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.servers.JavaCommand;
import lab.continuationreplay.core.servers.WireSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab server python --http 0}: the Python fixture over real HTTP through the lab's own command. Its gate's
 * refusals (403, 404, 401, 413, 400 with the stdio gate's line), a guarded two-round call committed for alice, bob
 * refused with alice's requestState (and that refusal had no effect: alice's continuation then applies, not replays),
 * and SIGTERM ending it with status 0. Requests are raw HTTP/1.1 bytes: a Java client would not send a foreign Host.
 */
class LabServerPythonHttpIT {
    private static final String ALICE = "alice-token-0123456789abcdef0123456789abcdef";
    private static final String BOB = "bob-token-0123456789abcdef0123456789abcdef012";
    private static final Pattern URL = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/mcp");
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}}}";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    record Answer(int status, Map<String, String> headers, String body) {
        JsonNode json() throws IOException {
            return JSON.readTree(body);
        }
    }

    @Test
    void thePythonFixtureRefusesBeforeItsSdkAndCommitsForItsPrincipalOnly() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.json"), "{\"alice\":\"" + ALICE + "\",\"bob\":\"" + BOB + "\"}");
        Map<String, String> environment = new HashMap<>(WireSettings.matrix(dir.resolve("py.sqlite3"), "unused").environment());
        environment.remove("WIRE_PRINCIPAL");
        environment.put("WIRE_BEARER_TOKENS_FILE", tokens.toString());
        List<String> command = new ArrayList<>(JavaCommand.of(List.of("-Dlab.home=" + LabProcess.home()), "-jar",
                LabHome.labJar(LabProcess.home()).toString(), "server", "python", "--http", "0"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(environment);
        Process lab = builder.start();
        StringBuilder stderr = new StringBuilder();
        try {
            int port = awaitPort(lab, stderr);
            String list = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{" + META + "}}";

            Answer foreignHost = post(port, "evil.example", "/nope", null, "tools/list", null, list.getBytes(StandardCharsets.UTF_8));
            assertEquals(403, foreignHost.status(), "a foreign Host is refused first, whatever the path and token");
            assertEquals(404, post(port, "127.0.0.1", "/other", ALICE, "tools/list", null, bytes(list)).status());
            Answer anonymous = post(port, "127.0.0.1", "/mcp", null, "tools/list", null, bytes(list));
            assertEquals(401, anonymous.status());
            assertEquals("Bearer", anonymous.headers().get("www-authenticate"));
            Answer unknown = post(port, "127.0.0.1", "/mcp", "x".repeat(40), "tools/list", null, bytes(list));
            assertEquals("Bearer error=\"invalid_token\"", unknown.headers().get("www-authenticate"));
            Answer tooLarge = exchange(port, ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + ALICE
                    + "\r\nContent-Type: application/json\r\nContent-Length: 4194305\r\nConnection: close\r\n\r\n{")
                    .getBytes(StandardCharsets.ISO_8859_1));
            assertEquals(413, tooLarge.status());
            byte[] notUtf8 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"x\":\"\u00ff\"}}"
                    .getBytes(StandardCharsets.ISO_8859_1);
            Answer gate = post(port, "127.0.0.1", "/mcp", ALICE, "tools/list", null, notUtf8);
            assertEquals(400, gate.status());
            assertEquals("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}", gate.body());

            String args = "\"arguments\":{\"operation_id\":\"py-it-1\",\"title\":\"t\"}";
            String first = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"create_guarded_issue\","
                    + args + "," + META + "}}";
            JsonNode round = post(port, "127.0.0.1", "/mcp", ALICE, "tools/call", "create_guarded_issue", bytes(first)).json();
            assertEquals("input_required", round.path("result").path("resultType").asText(), round.toString());
            String state = round.path("result").path("requestState").asText();
            String continuation = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"create_guarded_issue\","
                    + args + ",\"inputResponses\":{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"}}},"
                    + "\"requestState\":" + JSON.writeValueAsString(state) + "," + META + "}}";
            Answer asBob = post(port, "127.0.0.1", "/mcp", BOB, "tools/call", "create_guarded_issue", bytes(continuation));
            assertEquals(400, asBob.status(), asBob.body());
            assertEquals(-32602, asBob.json().path("error").path("code").asInt(), asBob.body());
            assertEquals("invalid_request_state", asBob.json().path("error").path("data").path("reason").asText());
            Answer asAlice = post(port, "127.0.0.1", "/mcp", ALICE, "tools/call", "create_guarded_issue", bytes(continuation));
            assertEquals(200, asAlice.status(), asAlice.body());
            JsonNode applied = asAlice.json().path("result").path("structuredContent");
            assertEquals("applied", applied.path("state").asText(), asAlice.body());
            assertFalse(applied.path("replayed").asBoolean(), "bob's refused attempt had no effect: " + asAlice.body());

            ProcessHandle fixture = lab.descendants().filter(p -> p.info().commandLine().orElse("").contains("py-fixture"))
                    .findFirst().orElseThrow();
            List<ProcessHandle> bridges = fixture.children().toList();
            assertEquals(1, bridges.size(), "one bridge, alice's (bob never reached a tool)");
            fixture.destroy(); // SIGTERM
            assertTrue(lab.waitFor(30, TimeUnit.SECONDS), stderr.toString());
            assertEquals(0, lab.exitValue(), "the fixture stopped cleanly on SIGTERM and the lab passed its status on\n" + stderr);
            for (ProcessHandle bridge : bridges) {
                assertFalse(bridge.isAlive(), "a bridge outlived the fixture");
            }
            assertFalse(stderr.toString().contains(ALICE) || stderr.toString().contains(BOB), "a token reached stderr");
        } finally {
            lab.descendants().forEach(ProcessHandle::destroy);
            lab.destroy();
            lab.waitFor();
        }
    }

    /**
     * The python column of {@code lab matrix --transport http} in quick form (about 13 s): another principal's state
     * (06), a crash after the commit recovered by a new process (09) and the connection closed after the commit (h1).
     * The whole column, with its cross cells, is {@code ./lab matrix --transport http}.
     */
    @Test
    void thePythonColumnPlaysOverHttpInTheMatrix() throws Exception {
        Path out = dir.resolve("matrix");
        LabProcess.Result run = LabProcess.run(List.of("matrix", "--transport", "http", "--sdk", "python", "--cases", "06,09,h1",
                "--out", out.toString()), Map.of(), new byte[0], java.time.Duration.ofMinutes(5));
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(Pattern.compile("(?m)^python-http +requested 2, executed 2, passed 2; checker \\(history only\\): no problem$")
                .matcher(run.stdout()).find(), run.stdout());
        assertTrue(Pattern.compile("(?m)^http-cases-python +HTTP-only cases: 1/1 passed; checker: no problem$")
                .matcher(run.stdout()).find(), run.stdout());
        JsonNode comparison = JSON.readTree(Files.readString(out.resolve("comparison.json")));
        assertEquals("[\"python-http\"]", comparison.path("sdks").toString());
        // the SDK maps the state refusal's -32602 to HTTP 400, as the Java server does (TypeScript: 200)
        assertEquals("[\"jsonrpc_error -32602 (HTTP 400)\"]",
                comparison.path("wire_differences").path("python-http").path("request_state_refusal").toString());
        String h1 = Files.readString(out.resolve("http-cases-python/case-h1/server.transcript.log"));
        assertTrue(h1.contains("<x {\"exchange\":"), "close-after-commit: an exchange without a response\n" + h1);
        String bob = Files.readString(out.resolve("python-http/case-06/bob.transcript.log"));
        assertTrue(bob.contains("Bearer [token of bob]"), bob);
        try (var files = Files.walk(out)) {
            for (Path file : files.filter(Files::isRegularFile).filter(p -> !p.toString().endsWith(".sqlite3")).toList()) {
                assertFalse(Pattern.compile("Bearer [A-Za-z0-9_-]{43}").matcher(Files.readString(file)).find(), file + " holds a token");
            }
        }
    }

    @Test
    void theConformanceProfileWithoutHttpIsRefusedByTheFixtureItself() throws Exception {
        // lab server passes --conformance on; the fixture owns the rule and refuses before it reads any configuration.
        LabProcess.Result refused = LabProcess.run(List.of("server", "python", "--conformance"), Map.of(), "");
        assertEquals(2, refused.exitCode(), refused.stdout() + refused.stderr());
        assertEquals("--conformance needs --http PORT (and is given once)", refused.stderr().strip());
        assertEquals("", refused.stdout());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static Answer post(int port, String host, String path, String token, String method, String name, byte[] body)
            throws IOException {
        StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n");
        head.append("Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n");
        head.append("MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: ").append(method).append("\r\n");
        if (name != null) {
            head.append("Mcp-Name: ").append(name).append("\r\n");
        }
        if (token != null) {
            head.append("Authorization: Bearer ").append(token).append("\r\n");
        }
        head.append("Content-Length: ").append(body.length).append("\r\nConnection: close\r\n\r\n");
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        request.writeBytes(body);
        return exchange(port, request.toByteArray());
    }

    /** One request on a new connection; the response read to the end (the server closes after Connection: close). */
    private static Answer exchange(int port, byte[] request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int split = response.indexOf("\r\n\r\n");
            String[] lines = response.substring(0, split).split("\r\n");
            Map<String, String> headers = new HashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
            return new Answer(Integer.parseInt(lines[0].split(" ")[1]), headers, response.substring(split + 4));
        }
    }

    /** The fixture prints its URL on stderr once it listens; the rest of stderr is kept for the failure messages. */
    private static int awaitPort(Process lab, StringBuilder seen) throws IOException {
        BufferedReader stderr = new BufferedReader(new InputStreamReader(lab.getErrorStream(), StandardCharsets.UTF_8));
        for (String line; (line = stderr.readLine()) != null; ) {
            seen.append(line).append('\n');
            Matcher url = URL.matcher(line);
            if (url.find()) {
                Thread drain = new Thread(() -> stderr.lines().forEach(l -> {
                    synchronized (seen) {
                        seen.append(l).append('\n');
                    }
                }));
                drain.setDaemon(true);
                drain.start();
                return Integer.parseInt(url.group(1));
            }
        }
        throw new AssertionError("the fixture ended without printing its URL:\n" + seen);
    }
}
