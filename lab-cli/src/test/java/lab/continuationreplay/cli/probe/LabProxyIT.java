package lab.continuationreplay.cli.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.cli.EvidenceCopies;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.servers.ClientKind;
import lab.continuationreplay.core.servers.JavaCommand;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab proxy} between the four official SDK clients and a server, as a client author would use it: the proxy is
 * the server command of the client's configuration (stdio) or the URL it is given (HTTP). Each client makes the
 * automatic call, the reply completing it is lost, and the application calls again, as the natural retry. What the
 * proxy says each client did is checked against what the client itself recorded.
 */
class LabProxyIT {
    private static final String ALICE = "alice-token-0123456789abcdef0123456789abcdef";
    private static final Duration DRIVER_LIMIT = Duration.ofMinutes(2);
    /**
     * The clients' request timeout: the reply the run loses is waited out for this long. Over stdio the client's
     * first request also waits for the proxy's JVM and its server to start, which took over 3 s on a loaded CI
     * machine (the TypeScript client's initialize timed out before it ever called).
     */
    private static final int CLIENT_TIMEOUT_MS = 8000;
    /** How long the proxy may take to seal and judge its run after the client ended (three JVMs per run, two runs at once). */
    private static final Duration SEAL_LIMIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    /**
     * All four clients against the guarded Java server, two at a time: each times out (8 s), cancels the request, and
     * calls again, which starts a new call; the guard refuses its continuation (operation_conflict), so no duplicate
     * and no result. The Java client against the unguarded control: the new call commits a second issue.
     */
    @Test
    void eachSdkClientCallsAgainAfterALostFinalReply() throws Exception {
        Map<String, CompletableFuture<JsonNode>> runs = new HashMap<>();
        // two at a time: each run starts three JVMs, and the TypeScript client's discover probe must be answered
        // within its request timeout (it starts the server command twice, docs/findings/ts-client-pinned-version-starts-server-twice.md)
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        for (ClientKind client : ClientKind.values()) {
            runs.put(client.label(), CompletableFuture.supplyAsync(() -> stdioRun(client, ServerKind.JAVA, "final-reply"), pool));
        }
        runs.put("control", CompletableFuture.supplyAsync(() -> stdioRun(ClientKind.JAVA, ServerKind.UNGUARDED, "final-reply"), pool));
        pool.shutdown();
        for (ClientKind client : ClientKind.values()) {
            JsonNode proxy = runs.get(client.label()).get(4, TimeUnit.MINUTES);
            assertEquals("lost", proxy.path("loss").path("action").asText(), proxy.toString());
            assertEquals("new-call", proxy.path("client").path("action").asText(), client + ": " + proxy);
            assertTrue(proxy.path("client").path("cancelled_after_ms").isNumber(), client + " cancels after its timeout: " + proxy);
            assertTrue(proxy.path("client").path("after_ms").asLong() >= 2_000, client + ": the retry waited for the timeout: " + proxy);
            assertEquals("refused", proxy.path("client").path("outcome").asText(), client + ": " + proxy);
            assertTrue(proxy.path("client").path("outcome_detail").asText().contains("operation_conflict"), proxy.toString());
        }
        JsonNode control = runs.get("control").get(4, TimeUnit.MINUTES);
        assertEquals("new-call", control.path("client").path("action").asText(), control.toString());
        assertEquals("different-result", control.path("client").path("outcome").asText(), "the control commits again: " + control);
    }

    /**
     * connection-after-commit over stdio: the client sees its server's output end and connects again, which starts
     * the proxy again; the second session joins the run and loses nothing more. lab verify derives the same, and a
     * forged history (the lost line marked as forwarded, hashes fixed) is refused.
     */
    @Test
    void aClosedConnectionAndASecondSessionAreOneRun() throws Exception {
        JsonNode proxy = stdioRun(ClientKind.PYTHON, ServerKind.JAVA, "connection-after-commit");
        assertEquals(2, proxy.path("sessions").asInt(), proxy.toString());
        assertEquals("lost-and-closed", proxy.path("loss").path("action").asText(), proxy.toString());
        assertEquals("new-call", proxy.path("client").path("action").asText(), proxy.toString());
        assertTrue(proxy.path("client").path("cancelled_after_ms").isNull(), "nothing to cancel on a closed connection: " + proxy);
        Path out = dir.resolve("python-java-connection-after-commit/proxy");
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());

        // report.html: the summary, the table of what the client did, every frame folded; no sideways scrolling
        lab.continuationreplay.cli.HeadlessBrowser.Page page = lab.continuationreplay.cli.HeadlessBrowser.open(out.resolve("report.html"),
                dir.resolve("browser"), Map.of("frames", "details tr", "lost", "td.no"));
        assertEquals(proxy.path("timeline").size() + 1, page.count("frames"), page.toString());
        assertEquals(1, page.count("lost"), page.toString());
        assertTrue(page.fits(), "the proxy report needs sideways scrolling: " + page);

        Path forged = dir.resolve("forged");
        EvidenceCopies.copyTree(out, forged);
        Path events = forged.resolve("run/s1.events.jsonl");
        String text = Files.readString(events).replace("\"action\":\"lost-and-closed\"", "\"action\":\"forwarded\"");
        Files.writeString(events, text);
        Files.delete(forged.resolve("history.jsonl"));
        lab.continuationreplay.history.RunLog.append(forged.resolve("history.jsonl"), forged.resolve("run"), null);
        LabProcess.Result refused = LabProcess.run(List.of("verify", forged.toString()), Map.of(), "");
        assertEquals(1, refused.exitCode(), refused.stdout());
        assertTrue(refused.stdout().contains("reached the client, though the plan lost it"), refused.stdout());
    }

    /**
     * Over HTTP: the proxy listens in front of lab server java --http, the TypeScript client reaches it by URL with a
     * bearer token; the reply is held (the client's request stays open and silent), the client times out and calls
     * again. SIGTERM ends the proxy, which still seals and judges its run; the token is nowhere in the evidence.
     */
    @Test
    void overHttpTheHeldReplyAndSigtermAreRecorded() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.json"), "{\"alice\":\"" + ALICE + "\"}");
        Map<String, String> environment = new HashMap<>(WireSettings.matrix(dir.resolve("http.sqlite3"), "unused").environment());
        environment.remove("WIRE_PRINCIPAL");
        environment.put("WIRE_BEARER_TOKENS_FILE", tokens.toString());
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Process server = Exec.command(lab("server", "java", "--http", Integer.toString(port))).addingEnvironment(environment)
                .withStderr(Exec.Io.file(dir.resolve("server.stderr.log"))).start();
        Path out = dir.resolve("http-proxy");
        Process proxy = Exec.command(lab("proxy", "--listen", "0", "--upstream", "http://127.0.0.1:" + port + "/mcp", "--out", out.toString()))
                .withStdout(Exec.Io.PIPE).withStderr(Exec.Io.file(dir.resolve("proxy.stderr.log"))).start();
        try {
            BufferedReader said = new BufferedReader(new InputStreamReader(proxy.getInputStream(), StandardCharsets.UTF_8));
            String listening = said.readLine();
            // the rest is read as it comes: the pipe is gone once the process has been reaped
            CompletableFuture<List<String>> restLines = CompletableFuture.supplyAsync(() -> said.lines().toList());
            assertTrue(listening != null && listening.startsWith("listening http://127.0.0.1:"), listening);
            LabProcess.awaitListening(port);
            ObjectNode servers = ExactJson.mapper().createObjectNode();
            servers.putObject("s").put("url", listening.substring("listening ".length())).put("bearer_token_env", "LAB_ALICE_TOKEN");
            List<JsonNode> records = drive(ClientKind.TYPESCRIPT, servers, "create_guarded_issue", "http", dir.resolve("http-client"),
                    Map.of("LAB_ALICE_TOKEN", ALICE), false);
            assertEquals("threw", firstCall(records).path("outcome").asText(), records.toString());
            proxy.toHandle().destroy(); // SIGTERM, leaving the pipe open (Process.destroy closes it)
            assertTrue(proxy.waitFor(30, TimeUnit.SECONDS));
            List<String> rest = restLines.get(30, TimeUnit.SECONDS);
            JsonNode judged = ExactJson.parse(Files.readString(out.resolve("proxy.json")));
            assertEquals("held", judged.path("loss").path("action").asText(), judged.toString());
            // over HTTP the TypeScript client cancels by closing the request's stream, with no notifications/cancelled
            assertTrue(judged.path("client").path("closed_after_ms").asLong() >= 2_000, judged.toString());
            assertTrue(judged.path("client").path("cancelled_after_ms").isNull(), judged.toString());
            assertEquals("new-call", judged.path("client").path("action").asText(), judged.toString());
            assertEquals("refused", judged.path("client").path("outcome").asText(), judged.toString());
            assertTrue(judged.path("ended_by").toString().contains("terminated"), judged.toString());
            assertTrue(rest.stream().anyMatch(l -> l.startsWith("proxy the reply completing call 1")), rest.toString());
            try (var files = Files.walk(out)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    assertFalse(Files.readString(file, StandardCharsets.ISO_8859_1).contains(ALICE), file + " holds the token");
                }
            }
            assertTrue(Files.readString(out.resolve("run/s1.transcript.log")).contains("[redacted, " + ALICE.length() + " characters]"));
        } finally {
            proxy.destroyForcibly();
            server.destroy();
            server.waitFor(15, TimeUnit.SECONDS);
        }
    }

    /**
     * Clients of the earlier protocol versions: the TypeScript client with its default negotiation and the Python and
     * Go clients in their default mode, against the test server speaking 2025-11-25 (it asks for a note by
     * elicitation in the middle of the one tools/call). Each times out, cancels, and sends the same call again, which
     * the server answers with the stored order: recovered. The Java client has no such mode: its connect fails.
     */
    @Test
    void clientsOfTheEarlierVersionsSendTheSameCallAgain() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        Map<ClientKind, CompletableFuture<JsonNode>> runs = new java.util.EnumMap<>(ClientKind.class);
        for (ClientKind client : ClientKind.values()) {
            runs.put(client, CompletableFuture.supplyAsync(() -> legacyRun(client), pool));
        }
        pool.shutdown();
        for (ClientKind client : List.of(ClientKind.TYPESCRIPT, ClientKind.PYTHON, ClientKind.GO)) {
            JsonNode proxy = runs.get(client).get(4, TimeUnit.MINUTES);
            assertEquals("retried-same-call", proxy.path("client").path("action").asText(), client + ": " + proxy);
            assertEquals("recovered", proxy.path("client").path("outcome").asText(), client + ": " + proxy);
            assertFalse(proxy.path("loss").path("had_state").asBoolean(), proxy.toString());
        }
        JsonNode java = runs.get(ClientKind.JAVA).get(4, TimeUnit.MINUTES);
        assertEquals("no-loss", java.path("client").path("action").asText(), "the Java client never connects: " + java);
    }

    private JsonNode legacyRun(ClientKind client) {
        try {
            Path folder = Files.createDirectories(dir.resolve("legacy-" + client.label()));
            List<String> command = lab("proxy", "--out", folder.resolve("proxy").toString(), "--");
            command.addAll(List.of("python3", LabProcess.home().resolve("lab-cli/src/test/resources/probe/defect_server.py").toString(),
                    folder.resolve("orders.sqlite3").toString(), "none"));
            ObjectNode script = ExactJson.mapper().createObjectNode().put("format", "client-script/1");
            ObjectNode entry = script.putObject("servers").putObject("s");
            command.forEach(entry.putArray("command")::add);
            entry.putObject("env").put("DEFECT_PROTOCOL", "2025-11-25");
            script.put("request_timeout_ms", CLIENT_TIMEOUT_MS).put("version_mode", "default");
            ArrayNode steps = script.putArray("steps");
            steps.addObject().put("op", "connect").put("connection", "a").put("server", "s");
            for (int i = 0; i < 2; i++) {
                ObjectNode call = steps.addObject().put("op", "call").put("connection", "a").put("tool", "create_order");
                call.putObject("arguments").put("order_id", "o-legacy").put("item", "book");
                call.putObject("answer").put("note", "gift wrap");
            }
            steps.addObject().put("op", "close").put("connection", "a");
            Path scriptFile = Files.writeString(folder.resolve("script.json"), script.toString());
            Exec.Result result = Exec.command(client.command(LabProcess.home(), scriptFile, folder.resolve("records.jsonl")))
                    .withStderr(Exec.Io.file(folder.resolve("driver.stderr.log"))).run(DRIVER_LIMIT);
            assertEquals(0, result.exitStatus(), client + ": " + Files.readString(folder.resolve("driver.stderr.log")));
            return judged(folder.resolve("proxy"));
        } catch (Exception e) {
            throw new IllegalStateException(client + " at 2025-11-25: " + e.getMessage(), e);
        }
    }

    /**
     * Clients of 2025-11-25 over HTTP, in front of a server on the official TypeScript SDK that keeps its events
     * (test resource probe/legacy_http_server.mjs): the proxy relays the call's stream as it comes and closes the
     * client's connection at the reply, after the priming event. The TypeScript, Python, Go and Rust clients each resume the
     * stream with GET and Last-Event-ID, which the proxy passes on, and get the reply the server redelivers; the Java
     * client has no mode for a server without 2026-07-28 and cannot connect.
     */
    @Test
    void clientsOfTheEarlierVersionsResumeALostStreamOverHttp() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path orders = Files.createFile(dir.resolve("legacy-http-orders.txt"));
        Process server = Exec.command("node", LabProcess.home().resolve("lab-cli/src/test/resources/probe/legacy_http_server.mjs").toString())
                .addingEnvironment(Map.of("SDK_MODULES", LabProcess.home().resolve("ts-fixture/node_modules").toString(), "PORT",
                        Integer.toString(port), "EFFECTS_FILE", orders.toString(), "EVENT_STORE", "memory"))
                .withStderr(Exec.Io.file(dir.resolve("legacy-http-server.stderr.log"))).start();
        try {
            LabProcess.awaitListening(port);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            Map<ClientKind, CompletableFuture<JsonNode>> runs = new java.util.EnumMap<>(ClientKind.class);
            for (ClientKind client : ClientKind.values()) {
                int upstream = port;
                runs.put(client, CompletableFuture.supplyAsync(() -> legacyHttpRun(client, upstream), pool));
            }
            pool.shutdown();
            for (ClientKind client : List.of(ClientKind.TYPESCRIPT, ClientKind.PYTHON, ClientKind.GO, ClientKind.RUST)) {
                JsonNode proxy = runs.get(client).get(4, TimeUnit.MINUTES);
                assertEquals("dropped", proxy.path("loss").path("action").asText(), client + ": " + proxy);
                assertEquals("resumed-stream", proxy.path("client").path("action").asText(), client + ": " + proxy);
                assertEquals("recovered", proxy.path("client").path("outcome").asText(), client + ": " + proxy);
                assertFalse(proxy.path("client").path("resumed_from").asText().isEmpty(), proxy.toString());
            }
            JsonNode java = runs.get(ClientKind.JAVA).get(4, TimeUnit.MINUTES);
            assertEquals("no-loss", java.path("client").path("action").asText(), "the Java client never connects: " + java);
            assertEquals(4, Files.readAllLines(orders).size(), "one order per client that connected, each committed once");
        } finally {
            server.destroy();
            server.waitFor(15, TimeUnit.SECONDS);
        }
    }

    private JsonNode legacyHttpRun(ClientKind client, int upstream) {
        try {
            Path folder = Files.createDirectories(dir.resolve("legacy-http-" + client.label()));
            Path out = folder.resolve("proxy");
            Process proxy = Exec.command(lab("proxy", "--listen", "0", "--upstream", "http://127.0.0.1:" + upstream + "/mcp",
                    "--lose", "connection-after-commit", "--out", out.toString())).withStdout(Exec.Io.PIPE)
                    .withStderr(Exec.Io.file(folder.resolve("proxy.stderr.log"))).start();
            try {
                BufferedReader said = new BufferedReader(new InputStreamReader(proxy.getInputStream(), StandardCharsets.UTF_8));
                String listening = said.readLine();
                CompletableFuture.runAsync(() -> said.lines().forEach(line -> { }));
                assertTrue(listening != null && listening.startsWith("listening http://127.0.0.1:"), listening);
                ObjectNode script = ExactJson.mapper().createObjectNode().put("format", "client-script/1");
                script.putObject("servers").putObject("s").put("url", listening.substring("listening ".length()))
                        .put("bearer_token_env", "LAB_ALICE_TOKEN");
                script.put("request_timeout_ms", 5000).put("version_mode", "default");
                ArrayNode steps = script.putArray("steps");
                steps.addObject().put("op", "connect").put("connection", "a").put("server", "s");
                for (int i = 0; i < 2; i++) {
                    // the TypeScript client's call asks for a note on its stream first: the proxy relays that request too
                    ObjectNode call = steps.addObject().put("op", "call").put("connection", "a")
                            .put("tool", client == ClientKind.TYPESCRIPT ? "confirm_order" : "place_order");
                    call.putObject("arguments").put("order_id", "o-" + client.label()).put("item", "book");
                    call.putObject("answer").put("note", "gift wrap");
                }
                steps.addObject().put("op", "close").put("connection", "a");
                Path scriptFile = Files.writeString(folder.resolve("script.json"), script.toString());
                Exec.Result result = Exec.command(client.command(LabProcess.home(), scriptFile, folder.resolve("records.jsonl")))
                        .addingEnvironment(Map.of("LAB_ALICE_TOKEN", ALICE))
                        .withStderr(Exec.Io.file(folder.resolve("driver.stderr.log"))).run(DRIVER_LIMIT);
                assertEquals(0, result.exitStatus(), client + ": " + Files.readString(folder.resolve("driver.stderr.log")));
            } finally {
                proxy.toHandle().destroy(); // SIGTERM: the proxy seals and judges its run
            }
            JsonNode judged = judged(out);
            LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
            assertEquals(0, verified.exitCode(), client + ": " + verified.stdout());
            return judged;
        } catch (Exception e) {
            throw new IllegalStateException(client + " over HTTP at 2025-11-25: " + e.getMessage(), e);
        }
    }

    /** Every bad input: one line on stderr naming the cause, exit 2, and no folder left behind. */
    @Test
    void badInputIsOneLineAndExit2AndLeavesNothing() throws Exception {
        Path out = dir.resolve("bad");
        List<List<String>> cases = List.of(
                List.of("proxy", "--out", out.toString()),
                List.of("proxy", "--out", out.toString(), "--listen", "0", "--upstream", "http://127.0.0.1:1/mcp", "--", "true"),
                List.of("proxy", "--out", out.toString(), "--listen", "0"),
                List.of("proxy", "--out", out.toString(), "--lose", "everything", "--", "true"),
                List.of("proxy", "--out", out.toString(), "--nth", "0", "--", "true"),
                List.of("proxy", "--out", out.toString(), "--calls", "0", "--", "true"),
                List.of("proxy", "--out", out.toString(), "--listen", "0", "--upstream", "http://example.com:8080/mcp"),
                List.of("proxy", "--out", out.toString(), "--listen", "0", "--upstream", "not a url"),
                List.of("proxy", "--out", out.toString(), "--", dir.resolve("no-such-server").toString()));
        List<String> expected = List.of("name the server once", "name the server once", "give both --listen PORT and --upstream URL",
                "--lose must be final-reply or connection-after-commit", "--nth counts completed tool calls from 1",
                "--calls must be 1 or more", "is not on this machine", "is not a URL", "the server command cannot start");
        for (int i = 0; i < cases.size(); i++) {
            LabProcess.Result run = LabProcess.run(cases.get(i), Map.of(), "");
            assertEquals(2, run.exitCode(), cases.get(i) + ": " + run.stdout() + run.stderr());
            assertEquals(1, run.stderr().strip().lines().count(), run.stderr());
            assertTrue(run.stderr().startsWith("lab proxy: ") && run.stderr().contains(expected.get(i)), run.stderr());
            assertFalse(Files.exists(out), cases.get(i) + " left " + out);
        }
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            LabProcess.Result run = LabProcess.run(List.of("proxy", "--out", out.toString(), "--listen",
                    Integer.toString(taken.getLocalPort()), "--upstream", "http://127.0.0.1:1/mcp"), Map.of(), "");
            assertEquals(2, run.exitCode(), run.stderr());
            assertTrue(run.stderr().contains("cannot listen there"), run.stderr());
            assertFalse(Files.exists(out));
        }
        Files.createDirectories(out);
        Files.writeString(out.resolve("notes.txt"), "mine");
        LabProcess.Result occupied = LabProcess.run(List.of("proxy", "--out", out.toString(), "--", "true"), Map.of(), "");
        assertEquals(2, occupied.exitCode());
        assertTrue(occupied.stderr().contains("is not empty and holds no proxy run"), occupied.stderr());
        assertEquals(List.of("notes.txt"), Files.list(out).map(p -> p.getFileName().toString()).toList());
    }

    /** One stdio run: the client's script starts lab proxy in front of {@code server}; answers the derived proxy.json. */
    private JsonNode stdioRun(ClientKind client, ServerKind server, String lose) {
        try {
            Path folder = Files.createDirectories(dir.resolve(client.label() + "-" + server.label() + "-" + lose));
            Map<String, String> environment = new HashMap<>(WireSettings.matrix(folder.resolve("live.sqlite3"), "alice").environment());
            environment.putAll(server.environment(LabProcess.home()));
            List<String> command = lab("proxy", "--out", folder.resolve("proxy").toString(), "--lose", lose, "--");
            command.addAll(server.command(LabProcess.home()));
            ObjectNode servers = ExactJson.mapper().createObjectNode();
            ObjectNode entry = servers.putObject("s");
            command.forEach(entry.putArray("command")::add);
            environment.forEach(entry.putObject("env")::put);
            String tool = server == ServerKind.UNGUARDED ? "create_issue" : "create_guarded_issue";
            List<JsonNode> records = drive(client, servers, tool, lose, folder, Map.of(), lose.equals("connection-after-commit"));
            assertEquals("threw", firstCall(records).path("outcome").asText(), client + " " + records);
            return judged(folder.resolve("proxy"));
        } catch (Exception e) {
            throw new IllegalStateException(client + " against " + server + ": " + e.getMessage(), e);
        }
    }

    /**
     * The client driver with a script of the automatic call, then the same call again (after connecting again when
     * {@code reconnect}), as an application retries; answers the client's records.
     */
    private static List<JsonNode> drive(ClientKind client, ObjectNode servers, String tool, String name, Path folder,
            Map<String, String> environment, boolean reconnect) throws Exception {
        Files.createDirectories(folder);
        ObjectNode script = ExactJson.mapper().createObjectNode().put("format", "client-script/1");
        script.set("servers", servers);
        script.put("request_timeout_ms", CLIENT_TIMEOUT_MS).put("version_mode", "pin");
        ArrayNode steps = script.putArray("steps");
        ObjectNode arguments = ExactJson.mapper().createObjectNode().put("operation_id", "proxy-" + name).put("title", "proxy").put("mode", "atomic");
        if (tool.equals("create_issue")) {
            arguments = ExactJson.mapper().createObjectNode().put("title", "proxy");
        }
        // list the tools first, as docs/findings/python-client-lists-tools-inside-call-tool.md advises: the Python
        // client's pinned connect sends nothing, so without it the first call pays the proxy's and the server's
        // start-up and can time out before the reply the run means to lose (seen on a loaded CI machine)
        steps.addObject().put("op", "connect").put("connection", "a").put("server", "s");
        steps.addObject().put("op", "list_tools").put("connection", "a");
        ObjectNode call = steps.addObject().put("op", "call").put("connection", "a").put("tool", tool);
        call.set("arguments", arguments);
        call.putObject("answer").put("body", "alpha");
        String second = reconnect ? "b" : "a";
        if (reconnect) {
            steps.addObject().put("op", "connect").put("connection", "b").put("server", "s");
            steps.addObject().put("op", "list_tools").put("connection", "b");
        }
        ObjectNode again = steps.addObject().put("op", "call").put("connection", second).put("tool", tool);
        again.set("arguments", arguments);
        again.putObject("answer").put("body", "alpha");
        steps.addObject().put("op", "close").put("connection", second);
        Path scriptFile = Files.writeString(folder.resolve("script.json"), script.toString());
        Path records = folder.resolve("records.jsonl");
        Exec.Result result = Exec.command(client.command(LabProcess.home(), scriptFile, records)).addingEnvironment(environment)
                .withStderr(Exec.Io.file(folder.resolve("driver.stderr.log"))).run(DRIVER_LIMIT);
        assertEquals(0, result.exitStatus(), client + ": " + Files.readString(folder.resolve("driver.stderr.log")));
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(records)) {
            lines.add(ExactJson.parse(line));
        }
        return lines;
    }

    private static JsonNode firstCall(List<JsonNode> records) {
        return records.stream().filter(r -> r.path("op").asText().equals("call")).findFirst().orElseThrow();
    }

    /**
     * proxy.json once the last session has sealed: a client may end without waiting for its server process, so the
     * proxy can still be judging its run when the driver has exited.
     */
    private static JsonNode judged(Path out) throws Exception {
        long deadline = System.nanoTime() + SEAL_LIMIT.toNanos();
        List<String> running = List.of();
        while (System.nanoTime() < deadline) {
            running = ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse(""))
                    .filter(line -> line.contains(" proxy ") && line.contains(out.toString())).toList();
            if (Files.exists(out.resolve("proxy.json")) && running.isEmpty()) {
                return ExactJson.parse(Files.readString(out.resolve("proxy.json")));
            }
            Thread.sleep(200);
        }
        List<String> files;
        try (var walk = Files.walk(out)) {
            files = walk.map(out::relativize).map(Path::toString).sorted().toList();
        } catch (java.io.IOException e) {
            files = List.of("(" + e.getMessage() + ")");
        }
        throw new AssertionError("no proxy.json in " + out + " " + SEAL_LIMIT.toSeconds() + " s after the client ended; proxies still"
                + " running: " + running.size() + "; files: " + files);
    }

    private static List<String> lab(String... args) {
        List<String> command = new ArrayList<>(JavaCommand.of(List.of("-Dlab.home=" + LabProcess.home()), "-jar",
                LabHome.labJar(LabProcess.home()).toString()));
        command.addAll(List.of(args));
        return command;
    }
}
