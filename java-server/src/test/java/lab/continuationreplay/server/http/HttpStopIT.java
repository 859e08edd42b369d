package lab.continuationreplay.server.http;

import static lab.continuationreplay.server.http.HttpServerProcess.ALICE;
import static lab.continuationreplay.server.http.HttpServerProcess.continuation;
import static lab.continuationreplay.server.http.HttpServerProcess.roundOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How an HTTP server ends: SIGTERM (what the lab's runner sends, through {@code Process.destroy()}) or SIGINT stops it
 * with exit 0 after the requests in progress, a fault keeps its own status, and a server that cannot listen says so.
 * Each test has its own process.
 */
class HttpStopIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The pattern the lab uses to find a server's URL in its stderr. */
    private static final Pattern LAB_URL = Pattern.compile("serving (http://127\\.0\\.0\\.1:[0-9]+/mcp)");

    @TempDir
    Path dir;

    @Test
    void sigtermAfterARealCallExitsZeroAndClosesTheLedger() throws Exception {
        try (HttpServerProcess server = HttpServerProcess.start(dir, null, Map.of())) {
            String state = JSON.readTree(server.send(server.post(ALICE, "tools/call", "create_guarded_issue",
                    roundOne(1, "op-stop", "Stop"))).body()).path("result").path("requestState").asText();
            HttpResponse<String> applied = server.send(server.post(ALICE, "tools/call", "create_guarded_issue",
                    continuation(2, "op-stop", "Stop", "B", state)));
            assertEquals(200, applied.statusCode(), applied.body());

            long start = System.nanoTime();
            // Exactly what the lab's runner does.
            server.process.destroy();
            assertEquals(0, server.awaitExit(10), server.stderrText());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "an idle server stops at once");
            // The ledger was closed: the last connection checkpoints the WAL and removes it, leaving one whole file.
            assertFalse(Files.exists(dir.resolve("store.sqlite3-wal")), "WAL left behind: the ledger was not closed");
            assertEquals(1, server.count("SELECT count(*) FROM issues"));
        }
    }

    @Test
    void sigintStopsItTheSameWay() throws Exception {
        // A shell starts background jobs with SIGINT ignored, and an ignored signal stays ignored in the JVM; the test
        // runner may be such a job, so give the server the default disposition, as a terminal would.
        try (HttpServerProcess server = HttpServerProcess.start(dir, List.of("env", "--default-signal=INT"), null, Map.of())) {
            HttpResponse<String> status = server.send(server.post(ALICE, "tools/call", "get_operation_status",
                    HttpServerProcess.status(1, "op-none")));
            assertEquals(200, status.statusCode(), status.body());
            server.signal("INT");
            assertEquals(0, server.awaitExit(10), server.stderrText());
            String stderr = server.stderrText();
            assertTrue(stderr.contains("java-server: SIGINT: stopping"), stderr);
            assertTrue(stderr.endsWith("java-server: stopped"), stderr);
        }
    }

    @Test
    void aRequestInProgressIsAnsweredBeforeTheServerExitsAndNoNewOneIsServed() throws Exception {
        try (HttpServerProcess server = HttpServerProcess.start(dir, null, Map.of())) {
            byte[] body = roundOne(1, "op-inflight", "Inflight").getBytes(StandardCharsets.UTF_8);
            int half = body.length / 2;
            try (Socket inFlight = new Socket("127.0.0.1", server.port)) {
                inFlight.setSoTimeout(20_000);
                OutputStream out = inFlight.getOutputStream();
                out.write(headers(server.port, body.length).getBytes(StandardCharsets.US_ASCII));
                out.write(body, 0, half);
                out.flush();
                // Let the gate take the request and start waiting for the rest of its body.
                Thread.sleep(500);
                server.process.destroy();
                Thread.sleep(500);
                assertTrue(server.process.isAlive(), "exited with a request in progress");

                // A request that arrives now is not served: the connection waits unaccepted and is then closed.
                CompletableFuture<String> late = CompletableFuture.supplyAsync(() -> rawExchange(server.port,
                        headers(server.port, body.length) + new String(body, StandardCharsets.UTF_8)));

                out.write(body, half, body.length - half);
                out.flush();
                String reply = new String(inFlight.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(reply.startsWith("HTTP/1.1 200"), reply);
                assertTrue(reply.contains("\"input_required\""), reply);

                assertEquals(0, server.awaitExit(10), server.stderrText());
                assertFalse(late.get(10, TimeUnit.SECONDS).startsWith("HTTP/1.1 200"), "served during the stop");
            }
        }
    }

    @Test
    void aStalledRequestHoldsTheStopForTheGraceOnly() throws Exception {
        // The read timeout is longer than the grace, so only the grace can end the wait.
        try (HttpServerProcess server = HttpServerProcess.start(dir, null, Map.of(HttpSettings.READ_TIMEOUT_MS, "60000"));
                Socket stalled = new Socket("127.0.0.1", server.port)) {
            stalled.getOutputStream().write((headers(server.port, 100) + "{\"jsonrpc\"").getBytes(StandardCharsets.US_ASCII));
            stalled.getOutputStream().flush();
            Thread.sleep(500);
            long start = System.nanoTime();
            server.signal("TERM");
            Integer status = server.awaitExit(20);
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertEquals(0, status, server.stderrText());
            assertTrue(seconds >= HttpMcpServer.STOP_GRACE.toSeconds() - 1 && seconds < HttpMcpServer.STOP_GRACE.toSeconds() + 5,
                    "stopped after " + seconds + " s");
            assertTrue(server.stderrText().contains("1 request(s) still in progress"), server.stderrText());
        }
    }

    @Test
    void theUnguardedControlStopsWithZeroToo() throws Exception {
        try (HttpServerProcess server = HttpServerProcess.start(dir, "lab.continuationreplay.server.UnguardedServerMain", Map.of())) {
            String first = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"create_issue\","
                    + "\"arguments\":{\"title\":\"C\"}," + HttpServerProcess.META + "}}";
            assertEquals(200, server.send(server.post(ALICE, "tools/call", "create_issue", first)).statusCode());
            server.process.destroy();
            assertEquals(0, server.awaitExit(10), server.stderrText());
            assertFalse(Files.exists(dir.resolve("store.sqlite3-wal")), "WAL left behind: the ledger was not closed");
        }
    }

    @Test
    void dropAfterCommitStillExits70() throws Exception {
        try (HttpServerProcess server = HttpServerProcess.start(dir, null, Map.of("WIRE_FAULT", "drop-after-commit"))) {
            String state = JSON.readTree(server.send(server.post(ALICE, "tools/call", "create_guarded_issue",
                    roundOne(1, "op-drop", "Drop"))).body()).path("result").path("requestState").asText();
            assertThrows(IOException.class, () -> server.send(server.post(ALICE, "tools/call", "create_guarded_issue",
                    continuation(2, "op-drop", "Drop", "B", state))));
            assertEquals(70, server.awaitExit(10), server.stderrText());
            assertEquals("applied", server.text("SELECT state FROM operations WHERE operation_id = 'op-drop'"));
        }
    }

    @Test
    void theReadyLineIsPrintedOnceInTheLabsFormAndTheSocketAlreadyListens() throws Exception {
        try (HttpServerProcess server = HttpServerProcess.start(dir, null, Map.of())) {
            // The first attempt, right after the line was read: no retry, so a line printed before listening would fail.
            String reply = rawExchange(server.port, "GET /nope HTTP/1.1\r\nHost: 127.0.0.1:" + server.port
                    + "\r\nConnection: close\r\n\r\n");
            assertTrue(reply.startsWith("HTTP/1.1 404"), reply);
            List<String> ready = server.stderr.stream().filter(line -> LAB_URL.matcher(line).find()).toList();
            assertEquals(List.of("java-server: serving " + server.uri), ready);
            Matcher m = LAB_URL.matcher(ready.get(0));
            assertTrue(m.find());
            assertEquals(server.uri.toString(), m.group(1));
        }
    }

    @Test
    void aTakenPortIsExit2AndNoReadyLine() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            Path tokens = dir.resolve("tokens.json");
            Files.writeString(tokens, "{\"alice\":\"" + ALICE + "\"}");
            ProcessBuilder builder = new ProcessBuilder(HttpServerProcess.command(null, Integer.toString(taken.getLocalPort())));
            builder.environment().keySet().removeIf(name -> name.startsWith("WIRE_"));
            builder.environment().putAll(HttpServerProcess.environment(dir.resolve("store.sqlite3"), tokens));
            builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            Process process = builder.start();
            String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(20, TimeUnit.SECONDS));
            assertEquals(2, process.exitValue(), stderr);
            assertFalse(LAB_URL.matcher(stderr).find(), "a ready line for a port it does not hold: " + stderr);
            List<String> ours = stderr.lines().filter(line -> line.startsWith("java-server:")).toList();
            assertEquals(List.of("java-server: cannot serve HTTP: not listening on 127.0.0.1:" + taken.getLocalPort()), ours);
        }
    }

    private static String headers(int port, int length) {
        return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAuthorization: Bearer " + ALICE
                + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream"
                + "\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: create_guarded_issue"
                + "\r\nContent-Length: " + length + "\r\nConnection: close\r\n\r\n";
    }

    /** Sends {@code request} on a new connection; what came back before the connection ended, "" if it was reset. */
    private static String rawExchange(int port, String request) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
