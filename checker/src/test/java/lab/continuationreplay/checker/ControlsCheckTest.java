package lab.continuationreplay.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.Control;
import lab.continuationreplay.cases.ServerSetup;
import lab.continuationreplay.history.RunLog;
import lab.continuationreplay.store.ledger.IssueLedger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each verdict the controls' check can give, on a controls folder written by hand: per control a ledger holding its
 * duplicates (written by the real ledger code) and the runner's history line. A control is a witness only when its
 * duplicates are there, so a missing duplicate must be as loud as a missing file.
 */
class ControlsCheckTest {
    private static final Control FIRST = Control.UNGUARDED_IDENTICAL_CONTINUATION;

    @TempDir
    Path matrix;

    private Path controls() {
        return matrix.resolve("controls");
    }

    private Path ledger(Control control, int issues) throws Exception {
        Path folder = Files.createDirectories(controls().resolve(control.folder()));
        try (IssueLedger ledger = IssueLedger.open(folder.resolve("store.sqlite3"), ServerSetup.BACKEND)) {
            for (int i = 0; i < issues; i++) {
                ledger.createIssue("control", CaseSpec.BODY);
            }
        }
        ClientCaseFolder.seal(folder.resolve("store.sqlite3"));
        return folder;
    }

    private void recorded(Path folder, String machineryError) throws Exception {
        RunLog.append(controls().resolve("history.jsonl"), folder, machineryError);
    }

    /** Every control with its duplicates and its history line, except {@code skip}, left to the test. */
    private void allBut(Control skip) throws Exception {
        for (Control control : Control.values()) {
            if (control != skip) {
                recorded(ledger(control, control.expectedIssues()), null);
            }
        }
    }

    @Test
    void everyControlWithItsDuplicatesIsWitnessed() throws Exception {
        allBut(null);
        ControlsCheck.Witnesses w = ControlsCheck.derive(matrix);
        assertEquals(List.of(), w.problems());
        assertTrue(w.allWitnessed());
        JsonNode first = w.witnesses().path(FIRST.folder());
        assertEquals(2, first.path("issues").asInt());
        assertEquals(2, first.path("expected_issues").asInt());
        assertTrue(first.path("witnessed").asBoolean());
        Verdict verdict = ControlsCheck.asVerdict(w);
        assertEquals(List.of(4, 4, 4), List.of(verdict.requested(), verdict.executed(), verdict.passed()));
        assertTrue(verdict.ok());
    }

    @Test
    void aControlWithoutItsDuplicateIsNotWitnessed() throws Exception {
        allBut(FIRST);
        recorded(ledger(FIRST, 1), null);
        ControlsCheck.Witnesses w = ControlsCheck.derive(matrix);
        assertEquals(List.of("control " + FIRST.folder() + ": 1 issues, expected 2"), w.problems());
        assertFalse(w.allWitnessed());
        assertFalse(w.witnesses().path("all_witnessed").asBoolean());
        Verdict verdict = ControlsCheck.asVerdict(w);
        assertEquals(List.of(4, 4, 3), List.of(verdict.requested(), verdict.executed(), verdict.passed()));
    }

    @Test
    void aControlWhoseServerNeverWroteIsNotWitnessed() throws Exception {
        allBut(FIRST);
        recorded(Files.createDirectories(controls().resolve(FIRST.folder())), null);
        assertEquals(List.of("control " + FIRST.folder() + ": 0 issues, expected 2"), ControlsCheck.derive(matrix).problems());
    }

    @Test
    void aControlTheHistoryDoesNotRecordIsNamedAndNotExecuted() throws Exception {
        allBut(FIRST);
        ledger(FIRST, 2);
        ControlsCheck.Witnesses w = ControlsCheck.derive(matrix);
        assertEquals(List.of("control " + FIRST.folder() + ": history.jsonl has no line for it"), w.problems());
        assertEquals(-1, w.witnesses().path(FIRST.folder()).path("issues").asInt());
        assertEquals(3, ControlsCheck.asVerdict(w).executed());
    }

    @Test
    void aControlChangedAfterTheRunIsNamedAndItsRowsAreNotCounted() throws Exception {
        allBut(FIRST);
        Path folder = ledger(FIRST, 2);
        recorded(folder, null);
        Files.writeString(folder.resolve("server.stderr.log"), "written after the history line\n");
        ControlsCheck.Witnesses w = ControlsCheck.derive(matrix);
        assertEquals(List.of("control " + FIRST.folder() + ": artifacts differ from the hashes the run recorded"), w.problems());
        assertEquals(-1, w.witnesses().path(FIRST.folder()).path("issues").asInt());
    }

    @Test
    void aLedgerWithoutAnIssuesTableIsAProblemNotACrash() throws Exception {
        allBut(FIRST);
        Path folder = Files.createDirectories(controls().resolve(FIRST.folder()));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("store.sqlite3"));
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE other(x)");
        }
        recorded(folder, null);
        List<String> problems = ControlsCheck.derive(matrix).problems();
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("control " + FIRST.folder() + ": "), problems.get(0));
        assertTrue(problems.get(0).contains("no such table: issues"), problems.get(0));
    }

    @Test
    void aControlTheMachineryStoppedIsNotWitnessedEvenWithItsDuplicates() throws Exception {
        // duplicates from a script that did not run to its end prove nothing about the guard's absence
        allBut(FIRST);
        recorded(ledger(FIRST, 2), "server did not start");
        ControlsCheck.Witnesses w = ControlsCheck.derive(matrix);
        assertEquals(List.of("control " + FIRST.folder() + ": 2 issues, expected 2 (machinery error: server did not start)"),
                w.problems());
        JsonNode first = w.witnesses().path(FIRST.folder());
        assertFalse(first.path("witnessed").asBoolean());
        assertEquals("server did not start", first.path("machinery_error").asText());
    }

    @Test
    void aHistoryLineForAFolderThatIsNoControlIsNamed() throws Exception {
        allBut(null);
        recorded(Files.createDirectories(controls().resolve("stray")), null);
        ControlsCheck.Witnesses w = ControlsCheck.derive(matrix);
        assertEquals(List.of("controls/history.jsonl records stray, which is no control"), w.problems());
        // every control is still witnessed; the stray line alone fails the check
        assertTrue(w.witnesses().path("all_witnessed").asBoolean());
        assertFalse(w.allWitnessed());
    }

    @Test
    void aControlsFolderWithoutHistoryIsRefused() throws Exception {
        ledger(FIRST, 2);
        ControlsCheck.Witnesses w = ControlsCheck.derive(matrix);
        assertEquals(List.of("controls/history.jsonl is missing: the run left no history (a lab before format \"history/1\""
                + " wrote none; re-run lab matrix)"), w.problems());
        assertFalse(w.allWitnessed());
    }

    @Test
    void aWrittenControlsFileIsVerifiedAgainstTheHistory() throws Exception {
        allBut(null);
        assertEquals(List.of("missing controls/controls.json"), ControlsCheck.verify(matrix).problems());
        ControlsCheck.deriveAndWrite(matrix);
        assertEquals(List.of(), ControlsCheck.verify(matrix).problems());
        assertThrows(IllegalArgumentException.class, () -> ControlsCheck.deriveAndWrite(matrix));

        Path file = controls().resolve("controls.json");
        Files.writeString(file, Files.readString(file).replace("\"issues\" : 2", "\"issues\" : 3"));
        assertEquals(List.of("controls/controls.json differs from the witnesses derived from the history"),
                ControlsCheck.verify(matrix).problems());

        Files.writeString(file, "{\"all_witnessed\":true}\n");
        assertEquals(List.of("controls/controls.json has no format version: written by a lab before format versions;"
                + " re-run lab matrix"), ControlsCheck.verify(matrix).problems());
    }
}
