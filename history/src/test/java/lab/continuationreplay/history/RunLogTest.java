package lab.continuationreplay.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's time per folder: written when measured, read back as written, absent in an older history. */
class RunLogTest {
    @Test
    void aFoldersTimeIsKeptBesideItsHashes(@TempDir Path attempt) throws Exception {
        Path timed = Files.createDirectories(attempt.resolve("case-01"));
        Files.writeString(timed.resolve("processes.json"), "{}");
        Path untimed = Files.createDirectories(attempt.resolve("case-02"));
        Path log = attempt.resolve(Layout.HISTORY);
        RunLog.append(log, timed, null, Duration.ofMillis(1_234));
        RunLog.append(log, untimed, "IOException: gone");
        String first = Files.readAllLines(log).get(0);
        assertTrue(first.contains("\"played_ms\":1234"), first);
        Map<String, RunLog.Entry> read = RunLog.read(log, "history.jsonl");
        assertEquals(1_234L, read.get("case-01").playedMs());
        assertTrue(read.get("case-01").ranToTheEnd());
        assertNull(read.get("case-02").playedMs(), "not measured, not invented");
        assertEquals("IOException: gone", read.get("case-02").machineryError());
    }

    @Test
    void aHistoryWrittenBeforeTimesReadsAsBefore(@TempDir Path attempt) throws Exception {
        Path log = attempt.resolve(Layout.HISTORY);
        Files.writeString(log, "{\"artifact_hashes\":{},\"folder\":\"case-01\",\"format\":\"history/1\"}\n");
        assertNull(RunLog.read(log, "history.jsonl").get("case-01").playedMs());
    }
}
