package lab.continuationreplay.clients;

import static lab.continuationreplay.clients.Script.arguments;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver against one of the lab's guarded servers, over real stdio: what the SDK gives back in each flow, as the
 * records show it. The two servers refuse differently (a JSON-RPC error in Java, an isError result in TypeScript);
 * everything else must read the same.
 */
abstract class GuardedServerFlows {
    static final int TIMEOUT_MS = 5000;

    @TempDir
    Path dir;

    abstract GuardedServer server();

    /** How this server's refusal {@code operation_conflict} of a guard reaches the client. */
    abstract void assertConflictRefusal(JsonNode record);

    @Test
    void automaticAndManualRoundsApplyOnceReplayAndRefuse() throws Exception {
        Path db = dir.resolve("store.sqlite3");
        var manual = arguments("manual-1", "manual");
        Script script = new Script(TIMEOUT_MS)
                .server("guarded", server().command(), server().env(db, null))
                .connect("a", "guarded")
                .listTools("a")
                .call("a", arguments("auto-1", "automatic"), "alpha")
                .firstRound("a", manual, "s1")
                .continuation("a", manual, "alpha", "s1", null)
                .continuation("a", manual, "alpha", "s1", "none")
                .continuation("a", manual, "beta", "s1", null)
                .continuation("a", manual, "alpha", "s1", "tamper")
                .status("a", "manual-1")
                .close("a");

        DriverProcess.Run run = DriverProcess.run(dir, script.json());

        assertEquals(0, run.exit(), run::describe);
        assertEquals("", run.stdout(), "stdout is unused");
        assertEquals(10, run.records().size(), run::describe);
        long previous = -1;
        for (int i = 0; i < run.records().size(); i++) {
            JsonNode record = run.records().get(i);
            assertEquals("client-record/1", record.get("format").asText());
            assertEquals("java", record.get("client").asText());
            assertEquals("2.2.0", record.get("sdk_version").asText());
            assertEquals(i, record.get("step").asInt());
            assertTrue(record.get("step").isInt(), "a top-level step is a number");
            assertTrue(record.get("started_ms").asLong() >= previous, "steps start in order");
            previous = record.get("started_ms").asLong();
        }

        JsonNode connected = run.step("0");
        assertEquals("connected", connected.get("outcome").asText(), run::describe);
        assertEquals("stdio", connected.get("transport").asText());
        assertEquals("2026-07-28", connected.at("/result/supportedVersions/0").asText());
        for (int i = 1; i < run.records().size(); i++) {
            assertFalse(run.records().get(i).has("transport"), "only a connect record has a transport");
        }

        JsonNode listed = run.step("1");
        assertEquals("listed", listed.get("outcome").asText());
        Set<String> tools = new HashSet<>();
        listed.at("/result/tools").forEach(tool -> tools.add(tool.get("name").asText()));
        assertTrue(tools.containsAll(Set.of("create_guarded_issue", "get_operation_status")), tools::toString);

        JsonNode automatic = run.step("2");
        assertEquals("result", automatic.get("outcome").asText(), run::describe);
        assertFalse(automatic.at("/result/structuredContent/replayed").asBoolean(true));
        assertEquals("absent", automatic.at("/sent/request_state").asText());
        assertEquals("alpha", automatic.at("/sent/answer/body").asText());

        JsonNode round1 = run.step("3");
        assertEquals("input_required", round1.get("outcome").asText(), run::describe);
        assertEquals("s1", round1.get("saved_state").asText());
        assertTrue(round1.at("/result/request_state_length").asInt() > 0);
        assertEquals("input_required", round1.at("/result/resultType").asText());
        assertEquals("elicitation/create", round1.at("/result/inputRequests/body/method").asText());
        assertFalse(round1.at("/result").has("requestState"), "the state itself never reaches a record");

        JsonNode applied = run.step("4");
        assertEquals("result", applied.get("outcome").asText(), run::describe);
        assertEquals("present", applied.at("/sent/request_state").asText());
        assertFalse(applied.at("/result/structuredContent/replayed").asBoolean(true));
        assertTrue(applied.get("saved_state").isNull());

        JsonNode replayed = run.step("5");
        assertEquals("result", replayed.get("outcome").asText(), run::describe);
        assertTrue(replayed.at("/result/structuredContent/replayed").asBoolean(false));
        assertEquals(applied.at("/result/structuredContent/effectId"), replayed.at("/result/structuredContent/effectId"));

        assertConflictRefusal(run.step("6"));

        JsonNode tampered = run.step("7");
        assertEquals("tampered", tampered.at("/sent/request_state").asText());
        assertEquals("threw", tampered.get("outcome").asText(), run::describe);
        assertEquals("McpException", tampered.at("/threw/type").asText());
        assertEquals(-32602, tampered.at("/threw/code").asInt());
        assertEquals("invalid_request_state", tampered.at("/threw/data/reason").asText());

        JsonNode status = run.step("8");
        assertEquals("result", status.get("outcome").asText(), run::describe);
        assertEquals("get_operation_status", status.at("/sent/tool").asText());

        assertEquals("closed", run.step("9").get("outcome").asText());
        assertEquals("close()", run.step("9").get("api").asText());
        assertEquals(2, GuardedServer.issueRows(db), "one issue per operation");
    }

    @Test
    void aLostReplyThenTheAutomaticRetryIsRefusedAndOneRowStays() throws Exception {
        Path db = dir.resolve("store.sqlite3");
        var args = arguments("lost-1", "lost");
        Script script = new Script(TIMEOUT_MS)
                .server("crash", server().command(), server().env(db, "drop-after-commit"))
                .server("restart", server().command(), server().env(db, null))
                .connect("c", "crash")
                .firstRound("c", args, "s")
                .continuation("c", args, "alpha", "s", null)
                .continuation("c", args, "alpha", "s", null)
                .connect("r", "restart")
                .call("r", args, "alpha")
                .continuation("r", args, "alpha", "s", null)
                .close("r")
                .close("c");

        DriverProcess.Run run = DriverProcess.run(dir, script.json());

        assertEquals(0, run.exit(), "a step that threw is recorded, not fatal\n" + run.describe());
        assertEquals(9, run.records().size(), run::describe);
        assertEquals("input_required", run.step("1").get("outcome").asText(), run::describe);

        JsonNode lost = run.step("2");
        assertEquals("threw", lost.get("outcome").asText(), run::describe);
        assertEquals("McpResponseLostException", lost.at("/threw/type").asText());
        assertTrue(lost.at("/threw/cause").asText().startsWith("IOException: "), run::describe);
        assertTrue(lost.at("/threw/code").isNull());

        JsonNode after = run.step("3");
        assertEquals("threw", after.get("outcome").asText(), run::describe);
        assertEquals("IllegalStateException", after.at("/threw/type").asText());
        assertEquals("The transport is closed", after.at("/threw/message").asText());

        // The retry trap: the automatic call starts a new round one, so its continuation carries a new state and
        // is refused for the caller's own committed write.
        assertConflictRefusal(run.step("5"));
        // The saved state replays the stored result exactly.
        JsonNode replay = run.step("6");
        assertEquals("result", replay.get("outcome").asText(), run::describe);
        assertTrue(replay.at("/result/structuredContent/replayed").asBoolean(false), run::describe);
        assertEquals(1, GuardedServer.issueRows(db), "the lost reply's write, once");
    }
}
