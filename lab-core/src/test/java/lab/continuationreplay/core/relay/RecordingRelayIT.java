package lab.continuationreplay.core.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.servers.JavaCommand;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.core.wire.WireEnvelope;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The relay as the child JVM a client starts, in front of real server processes: a shell that writes exact bytes, and
 * the guarded Java server. The relay runs from this build's class path (lab-core's classes), not from a lab.jar that
 * may be older than them.
 */
class RecordingRelayIT {
    private static final Duration LIMIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private Path relayDir() {
        return dir.resolve("relay");
    }

    private static List<String> relayCommand(RelayOptions options, List<String> server) {
        return RecordingRelay.command(System.getProperty("java.class.path"), options, server);
    }

    private static List<String> javaServer() {
        Path jar = LabHome.requireFile(ServerKind.JAVA.artifact(LabHome.resolve()), "package java-server first");
        return JavaCommand.of(ServerKind.SERVER_JVM_OPTIONS, "-jar", jar.toString());
    }

    /** The relay driven as a client drives it: its stdin and stdout are the client's wire, with a transcript of our own. */
    private ServerProcess client(String transcript, RelayOptions options, List<String> server, Map<String, String> environment)
            throws Exception {
        Files.createDirectories(dir.resolve("client"));
        return ServerProcess.start("relay " + options.name(), relayCommand(options, server), environment,
                dir.resolve("client/" + transcript + ".transcript.log"), dir.resolve("client/" + transcript + ".stderr.log"), LIMIT);
    }

    private JsonNode exitRecord(String name) throws Exception {
        Path file = relayDir().resolve(name + ".exit.json");
        return Format.EXIT.read(Files.readString(file), file.getFileName().toString());
    }

    private static void assertExit(JsonNode exit, String name, int status, String endedBy) {
        assertEquals(name, exit.path("name").textValue(), exit.toString());
        assertEquals(status, exit.path("exit_status").intValue(), exit.toString());
        assertEquals(endedBy, exit.path("ended_by").textValue(), exit.toString());
    }

    /** Reads what the relay still writes to its end, so the client's transcript is complete. */
    private static void drainToEnd(ServerProcess relay) throws Exception {
        while (relay.nextLine(LIMIT).isPresent()) {
            // lines after the last reply (none expected) are in the client's transcript
        }
    }

    private static List<Transcript.Line> lines(Path transcript, Transcript.Direction direction) throws Exception {
        return Transcript.read(transcript).stream().filter(l -> l.direction() == direction).toList();
    }

    private static List<String> raw(Path transcript) throws Exception {
        return Files.readAllLines(transcript, StandardCharsets.UTF_8);
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            out.writeBytes(part instanceof byte[] b ? b : part.toString().getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    @Test
    void everyByteGoesThroughBothWaysUnchangedAndIsTranscribedExactly() throws Exception {
        byte[] notUtf8 = {'a', (byte) 0xff, (byte) 0xfe};
        byte[] input = bytes(notUtf8, "\n", "x\ry\n", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n", "\n", "no newline at the end");
        Process relay = Exec.command(relayCommand(RelayOptions.recording(relayDir(), "echo"), List.of("cat")))
                .withStdout(Exec.Io.PIPE).withStderr(Exec.Io.file(dir.resolve("relay-own.stderr.log"))).start();
        try (OutputStream toRelay = relay.getOutputStream()) {
            toRelay.write(input);
        }
        assertArrayEquals(input, relay.getInputStream().readAllBytes(), "the client reads back exactly what cat was sent");
        assertTrue(relay.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS));
        assertEquals(0, relay.exitValue());

        List<String> transcribed = raw(relayDir().resolve("echo.transcript.log"));
        // each direction in its order; cat may echo a line before the next one is sent
        List<String> expected = List.of("b " + base64(notUtf8), "b " + base64("x\ry".getBytes(StandardCharsets.US_ASCII)),
                " {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", " ", " no newline at the end");
        assertEquals(expected.stream().map(l -> ">" + l).toList(), transcribed.stream().filter(l -> l.startsWith(">")).toList());
        assertEquals(expected.stream().map(l -> "<" + l).toList(), transcribed.stream().filter(l -> l.startsWith("<")).toList());
        assertExit(exitRecord("echo"), "echo", 0, RecordingRelay.END_OF_INPUT);
        assertFalse(Files.exists(relayDir().resolve("echo.relay.jsonl")), "no drop, no relay record");
        assertEquals(Set.of("echo.transcript.log", "echo.stderr.log", "echo.exit.json"), fileNames(relayDir()));
    }

    @Test
    void aServerThatEndsByItselfEndsTheRelayWithItsStatusAfterAllItWrote() throws Exception {
        List<String> server = List.of("sh", "-c", "printf 'one\\r\\n\\377two\\nlast'; exit 3");
        Process relay = Exec.command(relayCommand(RelayOptions.recording(relayDir(), "quits"), server))
                .withStdout(Exec.Io.PIPE).withStderr(Exec.Io.file(dir.resolve("relay-own.stderr.log"))).start();
        // the client's input stays open: the server's exit alone ends the relay
        byte[] received = relay.getInputStream().readAllBytes();
        assertTrue(relay.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS));
        assertEquals(3, relay.exitValue());
        relay.getOutputStream().close();
        assertArrayEquals(bytes("one\r\n", new byte[] {(byte) 0xff}, "two\nlast"), received);
        assertEquals(List.of("<b " + base64("one\r".getBytes(StandardCharsets.US_ASCII)), "<b " + base64(bytes(new byte[] {(byte) 0xff}, "two")),
                "< last"), raw(relayDir().resolve("quits.transcript.log")));
        assertExit(exitRecord("quits"), "quits", 3, RecordingRelay.SERVER_EXIT);
    }

    @Test
    void badArgumentsAreOneLineOnStderrAndExit2WithoutAFile() throws Exception {
        Path out = dir.resolve("never");
        List<List<String>> bad = List.of(
                List.of("--dir", out.toString(), "--name", "a"),
                List.of("--dir", out.toString(), "--name", "../a", "--", "cat"),
                List.of("--dir", out.toString(), "--name", "a", "--drop-reply-to-continuation", "0", "--", "cat"));
        for (List<String> args : bad) {
            List<String> command = JavaCommand.onClassPath(System.getProperty("java.class.path"), List.of(), RecordingRelay.class);
            command.addAll(args);
            Path stderr = dir.resolve("bad.stderr.log");
            Exec.Result result = Exec.command(command).withStderr(Exec.Io.file(stderr)).run(LIMIT);
            String said = Files.readString(stderr);
            assertEquals(RecordingRelay.USAGE, result.exitStatus(), args + ": " + said);
            assertEquals("", result.output(), "nothing on stdout");
            assertTrue(said.startsWith("recording-relay: ") && said.strip().lines().count() == 1, args + ": " + said);
            assertFalse(Files.exists(out), args + " wrote " + out);
        }
        // a server command that cannot start: the same, and the name it had claimed is given back
        Exec.Result result = Exec.command(relayCommand(RelayOptions.recording(out, "a"), List.of(dir.resolve("no-such-server").toString())))
                .withStderr(Exec.Io.INTO_STDOUT).run(LIMIT);
        assertEquals(RecordingRelay.USAGE, result.exitStatus(), result.output());
        assertTrue(result.output().startsWith("recording-relay: cannot start '") && result.output().strip().lines().count() == 1,
                result.output());
        assertEquals(Set.of(), fileNames(out));
    }

    @Test
    void theServersExit70AfterItsCommitIsTheRelaysStatus() throws Exception {
        Path database = dir.resolve("store.sqlite3");
        WireSettings crashing = WireSettings.matrix(database, "alice").withFault("drop-after-commit");
        ObjectNode call = ToolClient.arguments("relay-crash", "relay crash", "atomic");
        try (ServerProcess relay = client("crash", RelayOptions.recording(relayDir(), "crash"), javaServer(), crashing.environment())) {
            ToolClient client = ToolClient.on(relay);
            client.open();
            String state = client.roundOne(call);
            TransportFailure lost = assertThrows(TransportFailure.class, () -> client.commit(call, state, "alpha"));
            assertTrue(lost.getMessage().startsWith("server closed stdout"), lost.getMessage());
            assertEquals(70, relay.awaitExit(LIMIT));
        }
        assertExit(exitRecord("crash"), "crash", 70, RecordingRelay.SERVER_EXIT);
        assertEquals(1, StoreRows.count(database, "issues"), "committed before the halt");
        Path transcript = relayDir().resolve("crash.transcript.log");
        assertEquals(3, lines(transcript, Transcript.Direction.SENT).size());
        assertEquals(2, lines(transcript, Transcript.Direction.RECEIVED).size(), "no reply to the continuation");
        assertEquals(raw(dir.resolve("client/crash.transcript.log")), raw(transcript), "the client saw what the relay recorded");
    }

    @Test
    void theReplyToTheChosenContinuationIsTranscribedButNeverReachesTheClient() throws Exception {
        Path database = dir.resolve("store.sqlite3");
        RelayOptions options = RelayOptions.recording(relayDir(), "lossy").droppingReplyToContinuation(2);
        long droppedId = 1000;
        try (ServerProcess relay = client("lossy", options, javaServer(), WireSettings.matrix(database, "alice").environment())) {
            ToolClient client = ToolClient.on(relay);
            client.open();
            ObjectNode first = ToolClient.arguments("relay-1", "first", "atomic");
            assertTrue(client.commit(first, client.roundOne(first), "alpha").isSuccess(), "continuation 1 is answered");
            ObjectNode second = ToolClient.arguments("relay-2", "second", "atomic");
            String state = client.roundOne(second);
            relay.sendRaw(continuation(droppedId, second, state).toString());
            assertTrue(client.status("relay-2").isSuccess(), "the server is still up and answering");
            relay.closeInput();
            drainToEnd(relay);
            assertEquals(0, relay.awaitExit(LIMIT));
        }
        assertEquals(2, StoreRows.count(database, "issues"));
        assertEquals("{\"format\":\"relay/1\",\"dropped_reply_to\":" + droppedId + ",\"continuation\":2}\n",
                Files.readString(relayDir().resolve("lossy.relay.jsonl")));
        assertExit(exitRecord("lossy"), "lossy", 0, RecordingRelay.END_OF_INPUT);

        Path recorded = relayDir().resolve("lossy.transcript.log");
        Path seen = dir.resolve("client/lossy.transcript.log");
        List<String> recordedReplies = lines(recorded, Transcript.Direction.RECEIVED).stream().map(Transcript.Line::text).toList();
        List<String> droppedReplies = recordedReplies.stream().filter(r -> ExactJson.parse(r).path("id").asLong() == droppedId).toList();
        assertEquals(1, droppedReplies.size(), "the server did answer: " + recordedReplies);
        assertTrue(ExactJson.parse(droppedReplies.get(0)).has("result"), droppedReplies.get(0));
        List<String> forwarded = new ArrayList<>(recordedReplies);
        forwarded.remove(droppedReplies.get(0));
        assertEquals(forwarded, lines(seen, Transcript.Direction.RECEIVED).stream().map(Transcript.Line::text).toList(),
                "the client got every other reply, unchanged, and nothing for " + droppedId);
        assertEquals(lines(seen, Transcript.Direction.SENT), lines(recorded, Transcript.Direction.SENT));
    }

    private static ObjectNode continuation(long id, ObjectNode arguments, String state) {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("name", ToolClient.CREATE);
        params.set("arguments", arguments);
        params.set("inputResponses", ToolClient.accepted("alpha"));
        params.put("requestState", state);
        params.set("_meta", WireEnvelope.meta());
        ObjectNode frame = JsonNodeFactory.instance.objectNode();
        frame.put("jsonrpc", "2.0");
        frame.put("id", id);
        frame.put("method", "tools/call");
        frame.set("params", params);
        return frame;
    }

    @Test
    void twoRelaysStartedWithOneNameGetItAndItsSecond() throws Exception {
        Map<String, String> environment = WireSettings.matrix(dir.resolve("store.sqlite3"), "alice").environment();
        RelayOptions options = RelayOptions.recording(relayDir(), "probe");
        try (ServerProcess one = client("one", options, javaServer(), environment);
                ServerProcess two = client("two", options, javaServer(), environment)) {
            ToolClient.on(one).open();
            ToolClient.on(two).open();
            for (ServerProcess relay : List.of(one, two)) {
                relay.closeInput();
                assertEquals(0, relay.awaitExit(LIMIT));
            }
        }
        Set<String> names = new HashSet<>();
        for (String name : List.of("probe", "probe~2")) {
            JsonNode exit = exitRecord(name);
            assertExit(exit, name, 0, RecordingRelay.END_OF_INPUT);
            names.add(name);
            assertEquals(1, lines(relayDir().resolve(name + ".transcript.log"), Transcript.Direction.RECEIVED).size());
        }
        assertEquals(Set.of("probe", "probe~2"), names);
        assertFalse(Files.exists(relayDir().resolve("probe~3.transcript.log")));
    }

    /** With the input closed first too: the TypeScript client's probe teardown ends stdin and sends SIGTERM at once. */
    @ParameterizedTest(name = "input closed first: {0}")
    @ValueSource(booleans = {false, true})
    void sigtermEndsTheServerAndLeavesAClosedTranscriptAndTheExitFile(boolean inputClosedFirst) throws Exception {
        Map<String, String> environment = WireSettings.matrix(dir.resolve("store.sqlite3"), "alice").environment();
        List<ProcessHandle> tree;
        try (ServerProcess relay = client("probe", RelayOptions.recording(relayDir(), "probe"), javaServer(), environment)) {
            ToolClient.on(relay).open();
            tree = relay.handle().descendants().toList();
            assertEquals(1, tree.size(), "the relay's one child is the server: " + tree);
            if (inputClosedFirst) {
                relay.closeInput();
            }
            assertTrue(relay.handle().destroy(), "SIGTERM sent");
            assertEquals(143, relay.awaitExit(LIMIT));
        }
        JsonNode exit = exitRecord("probe");
        // 0 when the server ended on its closed input within the grace, 137 when it had to be killed
        int status = exit.path("exit_status").intValue();
        assertTrue(status == 0 || status == 137, exit.toString());
        assertExit(exit, "probe", status, RecordingRelay.RELAY_TERMINATED);
        for (ProcessHandle process : tree) {
            assertGone(process);
        }
        List<Transcript.Line> transcript = Transcript.read(relayDir().resolve("probe.transcript.log"));
        assertEquals(List.of(Transcript.Direction.SENT, Transcript.Direction.RECEIVED),
                transcript.stream().map(Transcript.Line::direction).toList());
    }

    @Test
    void sigtermKillsAServerThatIgnoresItsInputWithItsChildren() throws Exception {
        List<String> server = List.of("sh", "-c", "sleep 300 & echo $!; wait");
        try (ServerProcess relay = client("stubborn", RelayOptions.recording(relayDir(), "stubborn"), server, Map.of())) {
            long sleeper = Long.parseLong(relay.nextLine(LIMIT).orElseThrow());
            List<ProcessHandle> tree = relay.handle().descendants().toList();
            assertTrue(tree.stream().anyMatch(p -> p.pid() == sleeper), "the server's own child is in the tree: " + tree);
            assertTrue(relay.handle().destroy());
            assertEquals(143, relay.awaitExit(LIMIT));
            for (ProcessHandle process : tree) {
                assertGone(process);
            }
        }
        assertExit(exitRecord("stubborn"), "stubborn", 137, RecordingRelay.RELAY_TERMINATED);
    }

    /** Ended: gone, or a zombie its adopter has not reaped yet (onExit completes for both). */
    private static void assertGone(ProcessHandle process) throws Exception {
        process.onExit().get(10, TimeUnit.SECONDS);
        assertFalse(process.isAlive(), "left behind: " + process.pid());
    }

    private static Set<String> fileNames(Path folder) throws Exception {
        try (Stream<Path> files = Files.list(folder)) {
            Set<String> names = new HashSet<>();
            files.forEach(f -> names.add(f.getFileName().toString()));
            return names;
        }
    }
}
