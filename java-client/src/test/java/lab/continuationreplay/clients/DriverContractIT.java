package lab.continuationreplay.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The driver's process contract: exit statuses, the one stderr line, the timeout and environment it passes on. */
class DriverContractIT {
    // A server that leaves a mark the moment it starts; the script's env tells it where.
    private static final String MARKING_SERVER = """
            "servers": {"marker": {"command": ["sh", "-c", "touch \\"$MARK\\"; while read line; do :; done"],
                                   "env": {"MARK": "%s"}}},""";

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"op": "frobnicate", "connection": "a"}                                         | script error: step 1: unknown op "frobnicate"
            {"op": "call_once", "connection": "a", "arguments": {}}                         | script error: step 1 (call_once): tool is required
            {"op": "list_tools", "connection": "b"}                                         | script error: step 1 (list_tools): connection "b" is used before it is connected
            {"op": "connect", "connection": "b", "server": "elsewhere"}                     | script error: step 1 (connect): unknown server "elsewhere"
            {"op": "call_once", "connection": "a", "tool": "t", "arguments": {}, "state": "s"} | script error: step 1 (call_once): state "s" is used before it is saved
            """)
    void aBadStepStopsTheDriverBeforeAnythingStarts(String badStep, String expected) throws Exception {
        Path mark = dir.resolve("started");
        String script = "{\"format\": \"client-script/1\", " + MARKING_SERVER.formatted(mark) + " \"request_timeout_ms\": 1000,"
                + " \"version_mode\": \"pin\", \"steps\": [{\"op\": \"connect\", \"connection\": \"a\", \"server\": \"marker\"}, " + badStep + "]}";

        DriverProcess.Run run = DriverProcess.run(dir, script, Map.of());

        assertEquals(2, run.exit(), run::describe);
        assertEquals(expected + "\n", run.stderr(), "exactly one line on stderr");
        assertEquals("", run.stdout());
        assertFalse(run.wroteRecords(), "no records file for a script that never ran");
        assertFalse(Files.exists(mark), "the valid connect before the bad step must not have started its server");
    }

    @Test
    void anotherFormatIsRefusedWithExitTwo() throws Exception {
        DriverProcess.Run run = DriverProcess.run(dir, "{\"format\": \"client-script/2\", \"servers\": {}, \"steps\": []}", Map.of());

        assertEquals(2, run.exit());
        assertEquals("script error: format must be \"client-script/1\" (got \"client-script/2\")\n", run.stderr());
        assertFalse(run.wroteRecords());
    }

    @Test
    void recordsThatCannotBeWrittenAreADriverDefect() throws Exception {
        Path mark = dir.resolve("started");
        Files.createDirectory(dir.resolve("records.jsonl"));
        String script = "{\"format\": \"client-script/1\", " + MARKING_SERVER.formatted(mark) + " \"request_timeout_ms\": 1000,"
                + " \"version_mode\": \"pin\", \"steps\": [{\"op\": \"connect\", \"connection\": \"a\", \"server\": \"marker\"}]}";

        DriverProcess.Run run = DriverProcess.run(dir, script, Map.of());

        assertEquals(1, run.exit(), run::describe);
        assertTrue(run.stderr().contains("driver defect"), run::describe);
        assertFalse(Files.exists(mark), "nothing starts when the records cannot be kept");
    }

    @Test
    void theServerGetsTheDriversEnvironmentPlusTheScriptsAndEveryRoundTheTimeout() throws Exception {
        // A server that writes down its environment and then never answers: every request ends at the timeout.
        Path seen = dir.resolve("env.txt");
        String script = """
                {"format": "client-script/1",
                 "servers": {"silent": {"command": ["sh", "-c", "echo \\"$FROM_DRIVER $FROM_SCRIPT $SHARED\\" > \\"$SEEN\\"; while read line; do :; done"],
                                        "env": {"FROM_SCRIPT": "script", "SHARED": "script wins", "SEEN": "%s"}}},
                 "request_timeout_ms": 1000, "version_mode": "pin",
                 "steps": [{"op": "connect", "connection": "a", "server": "silent"},
                           {"op": "call_once", "connection": "a", "tool": "t", "arguments": {}},
                           {"op": "close", "connection": "a"}]}""".formatted(seen);

        DriverProcess.Run run = DriverProcess.run(dir, script, Map.of("FROM_DRIVER", "driver", "SHARED", "driver"));

        assertEquals(0, run.exit(), run::describe);
        assertEquals("driver script script wins\n", Files.readString(seen));
        for (String step : new String[] {"0", "1"}) {
            JsonNode record = run.step(step);
            assertEquals("threw", record.get("outcome").asText(), run::describe);
            assertEquals("McpTimeoutException", record.at("/threw/type").asText(), run::describe);
            assertTrue(record.at("/threw/message").asText().endsWith("round timeout of PT1S"), run::describe);
            long elapsed = record.get("elapsed_ms").asLong();
            assertTrue(elapsed >= 1000 && elapsed < 4000, "the script's timeout, not the SDK's 20 s: " + elapsed);
        }
        assertEquals("closed", run.step("2").get("outcome").asText());
    }
}
