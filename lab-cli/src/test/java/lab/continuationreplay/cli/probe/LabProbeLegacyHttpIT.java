package lab.continuationreplay.cli.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import lab.continuationreplay.cli.EvidenceCopies;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.history.RunLog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab probe --url} on servers that speak only the versions before 2026-07-28: a small server on the official
 * TypeScript SDK (test resource probe/legacy_http_server.mjs, on the ts-fixture's install) with sessions, asking for
 * a note by elicitation on the call's own stream, and with each kind of event store. The probe negotiates with
 * initialize over HTTP, keeps the session, answers the request on the open stream, and judges r1: the response
 * redelivered once on GET with Last-Event-ID (an event store that keeps events), not redelivered (one that keeps the
 * newest event only), not applicable (none: no priming event comes).
 */
class LabProbeLegacyHttpIT {
    @TempDir
    static Path dir;
    private static final List<Process> SERVERS = new ArrayList<>();
    private static final Map<String, String> ARGS = Map.of("--args", "{\"item\":\"tea\",\"order_id\":\"{{fresh}}\"}");

    @BeforeAll
    static void noServersYet() {
        SERVERS.clear();
    }

    @AfterAll
    static void stopServers() {
        SERVERS.forEach(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        });
    }

    @Test
    void redeliveryIsJudgedAt20251125ByWhatTheEventStoreKeeps() throws Exception {
        CompletableFuture<LabProcess.Result> memory = CompletableFuture.supplyAsync(() -> probe("memory", "2025-11-25", "confirm_order"));
        CompletableFuture<LabProcess.Result> bounded = CompletableFuture.supplyAsync(() -> probe("bounded", "2025-11-25", "place_order"));
        CompletableFuture<LabProcess.Result> none = CompletableFuture.supplyAsync(() -> probe("none", "2025-11-25", "place_order"));

        LabProcess.Result kept = memory.get();
        assertEquals(0, kept.exitCode(), kept.stdout() + kept.stderr());
        assertTrue(kept.stdout().startsWith("protocol 2025-11-25\n"), kept.stdout());
        for (String check : List.of("s1", "s2", "s3", "s5", "s8", "r1")) {
            assertTrue(kept.stdout().contains("\n" + check + " pass "), check + " in\n" + kept.stdout());
        }
        String transcript = lab.continuationreplay.history.Transcript.read(dir.resolve("memory-2025-11-25/run/server.transcript.log"))
                .stream().map(lab.continuationreplay.history.Transcript.Line::text).collect(java.util.stream.Collectors.joining("\n"));
        assertTrue(transcript.contains("\"method\":\"elicitation/create\""), "the note was asked on the call's stream");
        assertTrue(transcript.contains("[\"Mcp-Session-Id\","), "requests carry the session");
        assertTrue(transcript.contains("\"request\":\"GET /mcp HTTP/1.1\"") && transcript.contains("[\"Last-Event-ID\","), "r1 resumed");
        assertTrue(transcript.contains("\"request\":\"DELETE /mcp HTTP/1.1\""), "the session is ended at the close");
        assertTrue(transcript.contains("closed by the client after an event"), "r1's POST was closed after its priming event");
        assertEquals(0, LabProcess.run(List.of("verify", dir.resolve("memory-2025-11-25").toString()), Map.of(), "").exitCode());

        LabProcess.Result forgotten = bounded.get();
        assertEquals(0, forgotten.exitCode(), "weak never fails the run: " + forgotten.stdout() + forgotten.stderr());
        assertTrue(forgotten.stdout().contains("\nr1 weak not-redelivered GET with Last-Event-ID "), forgotten.stdout());

        LabProcess.Result unprimed = none.get();
        assertEquals(0, unprimed.exitCode(), unprimed.stdout() + unprimed.stderr());
        assertTrue(unprimed.stdout().contains("\nr1 not-applicable no event id came before the response"), unprimed.stdout());

        // a second delivery written into the history, hashes fixed: the transcript never carried it, and verify says so
        Path forged = dir.resolve("forged-redelivery");
        EvidenceCopies.copyTree(dir.resolve("memory-2025-11-25"), forged);
        Path events = forged.resolve("run/events.jsonl");
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(events)) {
            if (line.contains("\"kind\":\"resumed\"")) {
                var event = (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper().readTree(line);
                var deliveries = (com.fasterxml.jackson.databind.node.ArrayNode) event.get("deliveries");
                deliveries.add(deliveries.get(0).deepCopy());
                line = event.toString();
            }
            lines.add(line);
        }
        Files.write(events, lines);
        Files.delete(forged.resolve("history.jsonl"));
        Files.delete(forged.resolve("probe.json"));
        RunLog.append(forged.resolve("history.jsonl"), forged.resolve("run"), null);
        LabProcess.Result refused = LabProcess.run(List.of("verify", forged.toString()), Map.of(), "");
        assertEquals(1, refused.exitCode(), refused.stdout());
        assertTrue(refused.stdout().contains("a redelivered reply is not a frame the transcript received"), refused.stdout());
    }

    /** At 2025-06-18 the same checks, in the era the server chose; r1 belongs to 2025-11-25 only. */
    @Test
    void anEarlierVersionIsSpokenWhereTheServerOffersNoLater() throws Exception {
        LabProcess.Result run = probe("memory", "2025-06-18", "place_order");
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().startsWith("protocol 2025-06-18\n"), run.stdout());
        assertTrue(run.stdout().contains("\ns2 pass ") && run.stdout().contains("\ns3 pass "), run.stdout());
        assertTrue(run.stdout().contains("\nr1 not-applicable priming events and redelivery come with 2025-11-25; the server speaks 2025-06-18"),
                run.stdout());
    }

    /** A server that answers initialize with a version the probe does not know: one line naming --url, exit 2. */
    @Test
    void aServerSpeakingNoKnownVersionIsRefused() throws Exception {
        LabProcess.Result run = probe("none", "answer:2099-01-01", "place_order");
        assertEquals(2, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stderr().contains("the server speaks no protocol version lab probe knows") && run.stderr().contains("(check --url)"),
                run.stderr());
    }

    private static LabProcess.Result probe(String store, String versions, String tool) {
        try {
            int port;
            try (ServerSocket free = new ServerSocket(0)) {
                port = free.getLocalPort();
            }
            Path folder = Files.createDirectories(dir.resolve("server-" + store + "-" + versions.replace(':', '-')));
            Path effects = Files.createFile(folder.resolve("orders.txt"));
            ProcessBuilder builder = new ProcessBuilder("node", LabProcess.home().resolve(
                    "lab-cli/src/test/resources/probe/legacy_http_server.mjs").toString())
                    .redirectOutput(folder.resolve("stdout.log").toFile()).redirectError(folder.resolve("stderr.log").toFile());
            builder.environment().putAll(Map.of("SDK_MODULES", LabProcess.home().resolve("ts-fixture/node_modules").toString(),
                    "PORT", Integer.toString(port), "EFFECTS_FILE", effects.toString(), "EVENT_STORE", store));
            if (versions.startsWith("answer:")) {
                builder.environment().put("ANSWER_VERSION", versions.substring("answer:".length()));
            } else {
                builder.environment().put("VERSIONS", versions);
            }
            Process server = builder.start();
            synchronized (SERVERS) {
                SERVERS.add(server);
            }
            LabProcess.awaitListening(port);
            return LabProcess.run(List.of("probe", "--url", "http://127.0.0.1:" + port + "/mcp", "--tool", tool, "--args", ARGS.get("--args"),
                    "--answer", "note=\"for the probe\"", "--effects-cmd", "wc -l < '" + effects + "'",
                    "--out", dir.resolve(store + "-" + versions.replace(':', '-')).toString()), Map.of(), new byte[0], java.time.Duration.ofMinutes(4));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
