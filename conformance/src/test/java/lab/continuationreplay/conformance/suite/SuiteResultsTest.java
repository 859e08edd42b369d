package lab.continuationreplay.conformance.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteResultsTest {
    @TempDir
    Path dir;

    @Test
    void aScenarioPassesOnlyWithoutAFailedCheckAndWarningsAreCountedNotFailed() throws Exception {
        write("server-tools-list-2026-12-03T13-11-24-579Z", """
                [{"id":"tools-list","status":"SUCCESS"},{"id":"wire-schema-valid","status":"WARNING"},{"id":"x","status":"INFO"}]""");
        write("server-caching-2026-12-03T13-11-24-762Z", """
                [{"id":"caching-ttl","status":"FAILURE","errorMessage":"no ttlMs\\n on tools/list"},{"id":"a","status":"SUCCESS"}]""");
        Map<String, ScenarioOutcome> outcomes = SuiteResults.read(dir, Side.SERVER);
        assertEquals(new ScenarioOutcome("tools-list", Side.SERVER, Verdict.PASSED, 1, 0, 1, List.of(),
                "server-tools-list-2026-12-03T13-11-24-579Z"), outcomes.get("tools-list"));
        ScenarioOutcome caching = outcomes.get("caching");
        assertEquals(Verdict.FAILED, caching.verdict());
        assertEquals(List.of("caching-ttl: no ttlMs on tools/list"), caching.failures());
    }

    @Test
    void aFolderWithoutReadableChecksIsNotRunAndSaysWhy() throws Exception {
        Files.createDirectories(dir.resolve("server-tools-error-2026-12-03T13-11-24-672Z"));
        write("server-tools-audio-2026-12-03T13-11-24-647Z", "{\"not\":\"an array\"}");
        write("server-tools-image-2026-12-03T13-11-24-643Z", "[{");
        Map<String, ScenarioOutcome> outcomes = SuiteResults.read(dir, Side.SERVER);
        assertEquals(List.of("server-tools-error-2026-12-03T13-11-24-672Z/checks.json is missing"), outcomes.get("tools-error").failures());
        assertEquals(Verdict.NOT_RUN, outcomes.get("tools-error").verdict());
        assertEquals(List.of("server-tools-audio-2026-12-03T13-11-24-647Z/checks.json is not a JSON array of checks"),
                outcomes.get("tools-audio").failures());
        assertEquals(Verdict.NOT_RUN, outcomes.get("tools-image").verdict());
    }

    @Test
    void clientFoldersHaveNoSidePrefixAndTheLaterRunOfAScenarioCounts() throws Exception {
        write("sep-2322-client-request-state-2026-12-03T13-16-32-691Z", "[{\"id\":\"a\",\"status\":\"FAILURE\"}]");
        write("sep-2322-client-request-state-2026-12-03T13-17-00-000Z", "[{\"id\":\"a\",\"status\":\"SUCCESS\"}]");
        Map<String, ScenarioOutcome> outcomes = SuiteResults.read(dir, Side.CLIENT);
        assertEquals(Verdict.PASSED, outcomes.get("sep-2322-client-request-state").verdict());
        assertEquals(1, outcomes.size());
        assertEquals(Map.of(), SuiteResults.read(dir, Side.SERVER), "no server folder among them");
        assertEquals(Map.of(), SuiteResults.read(dir.resolve("absent"), Side.CLIENT), "a suite that wrote nothing");
    }

    private void write(String folder, String checks) throws Exception {
        Files.createDirectories(dir.resolve(folder));
        Files.writeString(dir.resolve(folder).resolve("checks.json"), checks);
    }
}
