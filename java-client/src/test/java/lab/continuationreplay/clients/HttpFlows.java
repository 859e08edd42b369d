package lab.continuationreplay.clients;

import static lab.continuationreplay.clients.Script.arguments;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver over Streamable HTTP against one of the lab's guarded servers, a real process on a real socket: the SDK's
 * own {@code HttpClientMcpTransport}, the bearer token from the driver's environment, and what the SDK gives back.
 */
abstract class HttpFlows {
    static final int TIMEOUT_MS = 5000;
    static final String TOKEN_ENV = "LAB_TEST_ALICE_TOKEN";
    static final String WRONG_TOKEN_ENV = "LAB_TEST_UNKNOWN_TOKEN";

    @TempDir
    Path dir;

    abstract GuardedServer server();

    private DriverProcess.Run run(Script script) throws Exception {
        DriverProcess.Run run = DriverProcess.run(dir, script.json().toString(),
                Map.of(TOKEN_ENV, HttpServerProcess.ALICE_TOKEN, WRONG_TOKEN_ENV, HttpServerProcess.UNKNOWN_TOKEN));
        String scriptText = Files.readString(dir.resolve("script.json"), StandardCharsets.UTF_8);
        for (String token : new String[] {HttpServerProcess.ALICE_TOKEN, HttpServerProcess.UNKNOWN_TOKEN}) {
            assertFalse(scriptText.contains(token), "the script names the variable, never the token");
            assertFalse(run.describe().contains(token), "no record and no stderr line holds a token\n" + run.describe());
        }
        return run;
    }

    @Test
    void connectsOverHttpCallsAutomaticallyAndReadsTheStatus() throws Exception {
        Path db = dir.resolve("store.sqlite3");
        try (HttpServerProcess server = HttpServerProcess.start(server(), dir, db, null)) {
            Script script = new Script(TIMEOUT_MS)
                    .httpServer("web", server.url(), TOKEN_ENV)
                    .connect("a", "web")
                    .listTools("a")
                    .call("a", arguments("http-auto-1", "over http"), "alpha")
                    .status("a", "http-auto-1")
                    .close("a");

            DriverProcess.Run run = run(script);

            assertEquals(0, run.exit(), run::describe);
            assertEquals("", run.stdout(), "stdout is unused");
            assertEquals(5, run.records().size(), run::describe);

            JsonNode connected = run.step("0");
            assertEquals("connected", connected.get("outcome").asText(), run::describe);
            assertEquals("http", connected.get("transport").asText());
            assertTrue(connected.get("api").asText().startsWith("HttpClientMcpTransport.builder(url).requestCustomizer(..)"));
            assertEquals(server.url().toString(), connected.at("/sent/url").asText());
            assertEquals(TOKEN_ENV, connected.at("/sent/bearer_token_env").asText());
            assertFalse(connected.get("sent").has("command"));
            assertEquals("2026-07-28", connected.at("/result/supportedVersions/0").asText());
            for (int i = 1; i < run.records().size(); i++) {
                assertFalse(run.records().get(i).has("transport"), "only a connect record has a transport");
            }

            assertEquals("listed", run.step("1").get("outcome").asText(), run::describe);

            JsonNode automatic = run.step("2");
            assertEquals("result", automatic.get("outcome").asText(), run::describe);
            assertEquals("applied", automatic.at("/result/structuredContent/state").asText(), run::describe);
            assertFalse(automatic.at("/result/structuredContent/replayed").asBoolean(true));

            JsonNode status = run.step("3");
            assertEquals("result", status.get("outcome").asText(), run::describe);
            assertEquals("applied", status.at("/result/structuredContent/state").asText(), run::describe);
            assertEquals("alice", status.at("/result/structuredContent/principal").asText(), "the token's principal");

            JsonNode closed = run.step("4");
            assertEquals("closed", closed.get("outcome").asText(), run::describe);
            assertTrue(closed.get("api").asText().startsWith("none: "), closed::toString);
            assertTrue(server.alive(), "closing the connection leaves the server to the lab");
        }
        assertEquals(1, GuardedServer.issueRows(db));
    }

    @Test
    void aWrongTokenIsRecordedAsTheSdkRaisedItAndTheNextStepsRun() throws Exception {
        Path db = dir.resolve("store.sqlite3");
        try (HttpServerProcess server = HttpServerProcess.start(server(), dir, db, null)) {
            Script script = new Script(TIMEOUT_MS)
                    .httpServer("intruder", server.url(), WRONG_TOKEN_ENV)
                    .httpServer("web", server.url(), TOKEN_ENV)
                    .connect("x", "intruder")
                    .call("x", arguments("http-wrong-1", "refused"), "alpha")
                    .connect("a", "web")
                    .status("a", "http-wrong-1")
                    .close("x")
                    .close("a");

            DriverProcess.Run run = run(script);

            assertEquals(0, run.exit(), "a refused request is a record, not the end of the run\n" + run.describe());
            assertEquals(6, run.records().size(), run::describe);
            for (String step : new String[] {"0", "1"}) {
                JsonNode refused = run.step(step);
                assertEquals("threw", refused.get("outcome").asText(), run::describe);
                assertEquals("McpHttpStatusException", refused.at("/threw/type").asText(), run::describe);
                assertEquals(401, refused.at("/threw/data/statusCode").asInt(), run::describe);
                assertTrue(refused.at("/threw/message").asText().startsWith("HTTP 401 from " + server.url()), run::describe);
                assertTrue(refused.at("/threw/code").isNull());
            }
            assertEquals("http", run.step("0").get("transport").asText());
            assertEquals("connected", run.step("2").get("outcome").asText(), run::describe);
            JsonNode status = run.step("3");
            assertEquals("result", status.get("outcome").asText(), run::describe);
            assertEquals("unknown", status.at("/result/structuredContent/state").asText(), "the refused call wrote nothing\n" + run.describe());
            assertEquals("closed", run.step("4").get("outcome").asText());
            assertEquals("closed", run.step("5").get("outcome").asText());
        }
        assertEquals(0, GuardedServer.issueRows(db));
    }

    @Test
    void aReplyLostOverHttpIsRecordedAsTheSdkRaisedItAndTheSavedStateReplays() throws Exception {
        Path db = dir.resolve("store.sqlite3");
        var args = arguments("http-lost-1", "lost over http");
        try (HttpServerProcess server = HttpServerProcess.start(server(), dir, db, "close-after-commit")) {
            Script script = new Script(TIMEOUT_MS)
                    .httpServer("web", server.url(), TOKEN_ENV)
                    .connect("a", "web")
                    .firstRound("a", args, "s")
                    .continuation("a", args, "alpha", "s", null)
                    .status("a", "http-lost-1")
                    .continuation("a", args, "alpha", "s", null)
                    .close("a");

            DriverProcess.Run run = run(script);

            assertEquals(0, run.exit(), run::describe);
            assertEquals(6, run.records().size(), run::describe);
            assertEquals("input_required", run.step("1").get("outcome").asText(), run::describe);
            assertLostReply(run.step("2"));
            JsonNode status = run.step("3");
            assertEquals("result", status.get("outcome").asText(), "the connection is still usable\n" + run.describe());
            assertEquals("applied", status.at("/result/structuredContent/state").asText(), run::describe);
            JsonNode replay = run.step("4");
            assertEquals("result", replay.get("outcome").asText(), run::describe);
            assertTrue(replay.at("/result/structuredContent/replayed").asBoolean(false), run::describe);
            assertTrue(server.alive(), "close-after-commit keeps the server serving");
        }
        assertEquals(1, GuardedServer.issueRows(db), "the lost reply's write, once");
    }

    /** What the SDK raised when the server closed the connection without a response, exactly as recorded. */
    void assertLostReply(JsonNode record) {
        assertEquals("threw", record.get("outcome").asText(), record::toString);
        assertEquals("McpResponseLostException", record.at("/threw/type").asText(), record::toString);
        assertEquals("The response to tools/call was lost; its outcome is unknown", record.at("/threw/message").asText());
        assertEquals("IOException: HTTP/1.1 header parser received no bytes", record.at("/threw/cause").asText(), record::toString);
        assertTrue(record.at("/threw/code").isNull());
    }
}
