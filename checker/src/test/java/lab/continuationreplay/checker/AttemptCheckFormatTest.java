package lab.continuationreplay.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.history.RunLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker refuses evidence whose format it does not read, on attempt folders built by hand: the refusal comes
 * before any content is read, so nothing else in the folder (transcripts, databases) needs to exist.
 */
class AttemptCheckFormatTest {
    private static final String OLD_REQUESTED = "[ {\"id\":\"01\",\"name\":\"identical\",\"expected\":\"x\"} ]\n";
    private static final String OLD_RECORD = "{\"case_id\":\"01\",\"expected\":\"x\",\"status\":\"pass\"}";

    @TempDir
    Path dir;

    private Path attempt(String name, String requested, String history, String results) throws Exception {
        Path attempt = Files.createDirectories(dir.resolve(name));
        Files.writeString(attempt.resolve("requested.json"), requested);
        if (history != null) {
            Files.writeString(attempt.resolve("history.jsonl"), history);
        }
        if (results != null) {
            Files.writeString(attempt.resolve("results.jsonl"), results);
        }
        return attempt;
    }

    private static String requested(String format, CaseId id) {
        return "{\"format\":\"" + format + "\",\"cases\":[{\"id\":\"" + id.number() + "\",\"name\":\"" + id.seedName()
                + "\",\"expected\":\"" + id.expected() + "\"}]}\n";
    }

    @Test
    void anOlderRunIsRefusedForEachOfItsDocuments() throws Exception {
        Verdict verdict = AttemptCheck.verify(attempt("java", OLD_REQUESTED, null, OLD_RECORD + "\n" + OLD_RECORD + "\n"));
        assertEquals(List.of(
                "java/requested.json has no format version (it is a JSON array, not an object): written by a lab before"
                        + " format versions; re-run lab matrix",
                "java/history.jsonl is missing: the run left no history (a lab before format \"history/1\" wrote none;"
                        + " re-run lab matrix)",
                "java/results.jsonl: record 1 has no format version: written by a lab before format versions; re-run lab matrix",
                "java/results.jsonl: 1 more records refused for their format"), verdict.problems());
        assertFalse(verdict.ok());
        assertEquals(0, verdict.executed());
    }

    @Test
    void anUnknownVersionIsNamedWithTheOneThisCheckerReads() throws Exception {
        Verdict requested = AttemptCheck.derive(attempt("a", requested("requested/7", CaseId.IDENTICAL_RETRY), "", null));
        assertEquals(List.of("a/requested.json: format \"requested/7\" is not one this checker reads (it reads \"requested/1\")"),
                requested.problems());
        Verdict history = AttemptCheck.derive(attempt("b", requested("requested/1", CaseId.IDENTICAL_RETRY),
                "{\"format\":\"history/9\",\"folder\":\"case-01\",\"artifact_hashes\":{}}\n", null));
        assertEquals(List.of("b/history.jsonl: line 1: format \"history/9\" is not one this checker reads (it reads \"history/1\")"),
                history.problems());
        Verdict record = AttemptCheck.verify(attempt("c", requested("requested/1", CaseId.IDENTICAL_RETRY), "",
                "{\"format\":\"results/1\"}\n"));
        assertEquals(List.of("c/results.jsonl: record 1: format \"results/1\" is not one this checker reads (it reads \"results/2\")"),
                record.problems());
    }

    @Test
    void aRecordThatIsNotJsonIsAProblemLineNotAParseError() throws Exception {
        Verdict verdict = AttemptCheck.verify(attempt("java", requested("requested/1", CaseId.IDENTICAL_RETRY), "", "{not json\n"));
        assertEquals(1, verdict.problems().size(), verdict.problems().toString());
        assertTrue(verdict.problems().get(0).startsWith("java/results.jsonl: record 1 is not JSON ("), verdict.problems().get(0));
    }

    @Test
    void aRequestedDocumentWithoutCasesIsRefused() throws Exception {
        Verdict verdict = AttemptCheck.derive(attempt("java", "{\"format\":\"requested/1\"}\n", "", null));
        assertEquals(List.of("java/requested.json has no \"cases\" array"), verdict.problems());
    }

    @Test
    void aCaseTheRunNeverFinishedIsNamedAndNotExecuted() throws Exception {
        Verdict verdict = AttemptCheck.derive(attempt("java", requested("requested/1", CaseId.NEVER_ADMITTED), "", null));
        assertEquals(List.of("case 02: history.jsonl has no line for it (the run stopped before it ended)"), verdict.problems());
        assertEquals(1, verdict.requested());
        assertEquals(0, verdict.executed());
    }

    @Test
    void aRequestedCaseMustBeAFrozenOneAndACrossCellHoldsOnlyCase09() throws Exception {
        String renamed = "{\"format\":\"requested/1\",\"cases\":[{\"id\":\"01\",\"name\":\"identical_retry\",\"expected\":\"anything\"}]}\n";
        assertEquals(List.of("requested case {\"id\":\"01\",\"name\":\"identical_retry\",\"expected\":\"anything\"} is not a frozen case"),
                AttemptCheck.derive(attempt("java", renamed, "", null)).problems());
        assertEquals(List.of("requested case {\"id\":\"01\",\"name\":\"identical_retry\",\"expected\":\"stored_result_one_effect\"}"
                + " is not a frozen case of a cross-SDK cell"),
                AttemptCheck.derive(attempt("cross-java-to-typescript", requested("requested/1", CaseId.IDENTICAL_RETRY), "", null)).problems());
    }

    @Test
    void aHistoryLineForAFolderNotRequestedAndTwiceTheSameFolderAreRefused() throws Exception {
        Path attempt = attempt("java", requested("requested/1", CaseId.IDENTICAL_RETRY), "", null);
        Files.createDirectories(attempt.resolve("case-01"));
        Files.createDirectories(attempt.resolve("case-02"));
        RunLog.append(attempt.resolve("history.jsonl"), attempt.resolve("case-02"), null);
        List<String> problems = AttemptCheck.derive(attempt).problems();
        assertTrue(problems.contains("history.jsonl records case-02, which was not requested"), problems.toString());
        assertTrue(problems.contains("case-02/ is in the attempt but was not requested"), problems.toString());
        RunLog.append(attempt.resolve("history.jsonl"), attempt.resolve("case-02"), null);
        FormatException twice = assertThrows(FormatException.class, () -> RunLog.read(attempt.resolve("history.jsonl"), "java/history.jsonl"));
        assertEquals("java/history.jsonl: folder case-02 appears twice", twice.getMessage());
    }

    @Test
    void aProcessesArrayOfAnOlderRunIsRefusedBeforeAnyOtherFactIsRead() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("java/case-09"));
        Files.writeString(folder.resolve("processes.json"), "[ {\"name\":\"crash\",\"exit_status\":70} ]\n");
        FormatException e = assertThrows(FormatException.class, () -> CaseFacts.read(folder));
        assertEquals("java/case-09/processes.json has no format version (it is a JSON array, not an object): written by a lab"
                + " before format versions; re-run lab matrix", e.getMessage());
        Files.writeString(folder.resolve("processes.json"), "{\"format\":\"processes/1\"}\n");
        e = assertThrows(FormatException.class, () -> CaseFacts.read(folder));
        assertEquals("java/case-09/processes.json has no \"processes\" array", e.getMessage());
        Files.delete(folder.resolve("processes.json"));
        e = assertThrows(FormatException.class, () -> CaseFacts.read(folder));
        assertEquals("java/case-09/processes.json is missing", e.getMessage());
    }
}
