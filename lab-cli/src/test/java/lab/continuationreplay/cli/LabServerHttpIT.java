package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.servers.JavaCommand;
import lab.continuationreplay.core.servers.WireSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lab server KIND --http 0}: the guarded servers with an HTTP mode reachable through the lab's own command, with a bearer principal. */
class LabServerHttpIT {
    private static final String TOKEN = "alice-token-0123456789abcdef0123456789abcdef";
    private static final Pattern URL = Pattern.compile("http://127\\.0\\.0\\.1:\\d+/mcp");

    @TempDir
    Path dir;

    @Test
    void bothServersAnswerAStatusCallForTheTokensPrincipalAndRefuseARequestWithoutAToken() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.json"), "{\"alice\":\"" + TOKEN + "\"}");
        for (String kind : List.of("java", "typescript", "go", "rust")) {
            Map<String, String> environment = new java.util.HashMap<>(WireSettings.matrix(dir.resolve(kind + ".sqlite3"), "unused").environment());
            environment.remove("WIRE_PRINCIPAL");
            environment.put("WIRE_BEARER_TOKENS_FILE", tokens.toString());
            List<String> command = new java.util.ArrayList<>(JavaCommand.of(List.of("-Dlab.home=" + LabProcess.home()), "-jar",
                    LabHome.labJar(LabProcess.home()).toString(), "server", kind, "--http", "0"));
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            builder.environment().putAll(environment);
            Process server = builder.start();
            try {
                String url = awaitUrl(server);
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
                String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_operation_status\","
                        + "\"arguments\":{\"operation_id\":\"x\"},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                        + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
                HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call")
                        .header("Mcp-Name", "get_operation_status").POST(HttpRequest.BodyPublishers.ofString(body));
                HttpResponse<String> anonymous = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(401, anonymous.statusCode(), kind);
                // A new client, so no connection the server closed after its 401 is reused (a keep-alive race this
                // test is not about; noted in the issue).
                HttpClient second = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
                HttpResponse<String> alice = second.send(request.header("Authorization", "Bearer " + TOKEN).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, alice.statusCode(), kind + ": " + alice.body());
                assertTrue(alice.body().contains("\"principal\":\"alice\""), kind + ": " + alice.body());
            } finally {
                server.descendants().forEach(ProcessHandle::destroy);
                server.destroy();
                server.waitFor();
            }
        }
    }

    /**
     * A supervisor stops {@code lab server} with SIGTERM (docker stop, a replica container ending): the lab stops its
     * server and exits with the server's own status, 0 for a clean shutdown, not the JVM's 143 for the signal.
     */
    @Test
    void aSigtermToTheLabStopsTheServerAndTheLabExitsWithTheServersStatus() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.json"), "{\"alice\":\"" + TOKEN + "\"}");
        Map<String, String> environment = new java.util.HashMap<>(WireSettings.matrix(dir.resolve("term.sqlite3"), "unused").environment());
        environment.remove("WIRE_PRINCIPAL");
        environment.put("WIRE_BEARER_TOKENS_FILE", tokens.toString());
        ProcessBuilder builder = new ProcessBuilder(JavaCommand.of(List.of("-Dlab.home=" + LabProcess.home()), "-jar",
                LabHome.labJar(LabProcess.home()).toString(), "server", "java", "--http", "0"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(environment);
        Process lab = builder.start();
        try {
            awaitUrl(lab);
            List<ProcessHandle> servers = lab.descendants().toList();
            assertTrue(!servers.isEmpty(), "the lab started its server as a child");
            lab.destroy();
            assertTrue(lab.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "the lab ended after SIGTERM");
            assertEquals(0, lab.exitValue(), "the server's clean shutdown, passed on");
            servers.forEach(server -> assertTrue(!server.isAlive(), "no server outlives the lab"));
        } finally {
            lab.descendants().forEach(ProcessHandle::destroyForcibly);
            lab.destroyForcibly();
        }
    }

    @Test
    void aPortOutOfRangeIsOneLineAndStartsNothing() throws Exception {
        LabProcess.Result result = LabProcess.run(List.of("server", "java", "--http", "70000"), Map.of(), "");
        assertEquals(1, result.exitCode());
        assertEquals("lab server: --http 70000 is not a port (0 to 65535)\n", result.stderr());
    }

    /** The server prints its URL on stderr once it listens. */
    private static String awaitUrl(Process server) throws Exception {
        BufferedReader stderr = new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line; (line = stderr.readLine()) != null; ) {
            seen.append(line).append('\n');
            Matcher url = URL.matcher(line);
            if (url.find()) {
                // keep draining stderr so the server never blocks on a full pipe
                Thread drain = new Thread(() -> stderr.lines().forEach(l -> { }));
                drain.setDaemon(true);
                drain.start();
                return url.group();
            }
        }
        throw new AssertionError("the server ended without printing its URL:\n" + seen);
    }
}
