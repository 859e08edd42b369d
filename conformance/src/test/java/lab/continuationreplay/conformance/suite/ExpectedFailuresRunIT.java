package lab.continuationreplay.conformance.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.core.servers.ServerKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import lab.continuationreplay.history.Judgement;

/**
 * The expected-failures list can only shrink: the real suite against the real Java server's profile, with a list
 * that names a scenario the server passes. That pass must fail the run, and say why.
 */
class ExpectedFailuresRunIT {
    private static final Path HOME = Path.of(System.getProperty("lab.home", "..")).toAbsolutePath().normalize();

    @Test
    void anExpectedFailureThatPassesFailsTheRun(@TempDir Path dir) throws Exception {
        Path list = dir.resolve("expected");
        Files.createDirectories(list);
        Files.writeString(list.resolve("java.json"), "{\"format\":\"expected-failures/1\",\"sdk\":\"java\",\"entries\":[{\"side\":"
                + "\"server\",\"scenario\":\"tools-list\",\"reason\":\"listed to see the list refused\",\"sdk_location\":\"none\","
                + "\"finding\":\"docs/findings/conformance-request-state-passes-an-unsigned-state.md\"}]}");
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        ConformanceRun.Result result = ConformanceRun.run(new ConformanceRun.Options(HOME, dir.resolve("out"), List.of(ServerKind.JAVA),
                List.of(), "unused", new PrintStream(progress, true, StandardCharsets.UTF_8), list));
        assertFalse(result.ok(), "a listed scenario that passes makes the list stale");
        ConformanceRun.Row toolsList = result.rows().stream().filter(r -> r.scenario().equals("tools-list")).findFirst().orElseThrow();
        assertEquals(Judgement.NOW_PASSES, toolsList.judgement());
        assertEquals(1, result.rows().stream().filter(r -> r.judgement().failsTheRun()).count(), "only that one: the other 36 pass");
        assertTrue(ConformanceReport.summary(result).contains("  server java tools-list: passes, but is listed as an expected failure"),
                ConformanceReport.summary(result).toString());
        assertTrue(result.strict().get(0).report().isPresent() && !result.strict().get(0).failed(), "the strict checks still ran and held");
    }
}
