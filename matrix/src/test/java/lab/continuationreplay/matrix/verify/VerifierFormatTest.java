package lab.continuationreplay.matrix.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.matrix.cases.MatrixCase;
import lab.continuationreplay.matrix.cases.MatrixCases;
import lab.continuationreplay.matrix.evidence.CaseFacts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker refuses evidence whose format it does not read, on attempt folders built by hand: the refusal comes
 * before any content is read, so nothing else in the folder (transcripts, databases) needs to exist.
 */
class VerifierFormatTest {
    private static final String OLD_REQUESTED = "[ {\"id\":\"01\",\"name\":\"identical\",\"expected\":\"x\"} ]\n";
    private static final String OLD_RECORD = "{\"case_id\":\"01\",\"expected\":\"x\",\"status\":\"pass\"}";

    @TempDir
    Path dir;

    private Path attempt(String requested, String results) throws Exception {
        Path attempt = Files.createDirectories(dir.resolve("java"));
        Files.writeString(attempt.resolve("requested.json"), requested);
        Files.writeString(attempt.resolve("results.jsonl"), results);
        return attempt;
    }

    private static String requested(String format) {
        MatrixCase first = MatrixCases.all().get(0);
        return "{\"format\":\"" + format + "\",\"cases\":[{\"id\":\"" + first.id() + "\",\"name\":\"" + first.name()
                + "\",\"expected\":\"" + first.expected() + "\"}]}\n";
    }

    @Test
    void recordsWithoutAFormatAreAnOlderRun() throws Exception {
        Verifier.Verdict verdict = Verifier.verify(attempt(requested("requested/1"), OLD_RECORD + "\n" + OLD_RECORD + "\n"),
                MatrixCases.all());
        assertEquals(List.of(
                "java/results.jsonl: record 1 has no format version: written by a lab before format versions; re-run lab matrix",
                "java/results.jsonl: 1 more records refused for their format"), verdict.problems());
        assertFalse(verdict.ok());
        assertEquals(0, verdict.executed());
    }

    @Test
    void aWholeOlderRunIsRefusedForEachOfItsDocuments() throws Exception {
        Verifier.Verdict verdict = Verifier.verify(attempt(OLD_REQUESTED, OLD_RECORD + "\n"), MatrixCases.all());
        assertEquals(List.of(
                "java/requested.json has no format version (it is a JSON array, not an object): written by a lab before"
                        + " format versions; re-run lab matrix",
                "java/results.jsonl: record 1 has no format version: written by a lab before format versions; re-run lab matrix"),
                verdict.problems());
    }

    @Test
    void anUnknownRequestedVersionIsNamedWithTheOneThisCheckerReads() throws Exception {
        Verifier.Verdict verdict = Verifier.verify(attempt(requested("requested/7"), ""), MatrixCases.all());
        assertEquals(List.of("java/requested.json: format \"requested/7\" is not one this checker reads (it reads \"requested/1\")"),
                verdict.problems());
    }

    @Test
    void anUnknownRecordVersionIsNamedWithItsRecord() throws Exception {
        Verifier.Verdict verdict = Verifier.verify(attempt(requested("requested/1"),
                "{\"format\":\"results/2\",\"case_id\":\"01\"}\n"), MatrixCases.all());
        assertEquals(List.of("java/results.jsonl: record 1: format \"results/2\" is not one this checker reads (it reads \"results/1\")"),
                verdict.problems());
    }

    @Test
    void aRecordThatIsNotJsonIsAProblemLineNotAParseError() throws Exception {
        Verifier.Verdict verdict = Verifier.verify(attempt(requested("requested/1"), "{\"case_id\":\n"), MatrixCases.all());
        assertEquals(1, verdict.problems().size(), verdict.problems().toString());
        assertEquals(true, verdict.problems().get(0).startsWith("java/results.jsonl: record 1 is not JSON (invalid JSON: "),
                verdict.problems().get(0));
    }

    @Test
    void aRequestedDocumentWithoutCasesIsRefused() throws Exception {
        Verifier.Verdict verdict = Verifier.verify(attempt("{\"format\":\"requested/1\"}\n", ""), MatrixCases.all());
        assertEquals(List.of("java/requested.json has no \"cases\" array"), verdict.problems());
    }

    @Test
    void theOlderProcessesArrayIsRefusedBeforeAnyOtherFactIsRead() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("java/case-09"));
        Files.writeString(folder.resolve("processes.json"), "[ {\"name\":\"crash\",\"exit_status\":70} ]\n");
        FormatException e = assertThrows(FormatException.class, () -> CaseFacts.read("09", folder));
        assertEquals("java/case-09/processes.json has no format version (it is a JSON array, not an object): written by a lab"
                + " before format versions; re-run lab matrix", e.getMessage());
        Files.writeString(folder.resolve("processes.json"), "{\"format\":\"processes/1\",\"processes\":{}}\n");
        e = assertThrows(FormatException.class, () -> CaseFacts.read("09", folder));
        assertEquals("java/case-09/processes.json has no \"processes\" array", e.getMessage());
    }
}
