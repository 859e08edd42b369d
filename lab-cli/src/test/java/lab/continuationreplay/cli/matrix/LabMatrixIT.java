package lab.continuationreplay.cli.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cli.EvidenceCopies;
import lab.continuationreplay.cli.HeadlessBrowser;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The main job end to end: {@code lab matrix} on both SDKs, then {@code lab verify} on what it left. */
class LabMatrixIT {
    @TempDir
    static Path dir;
    static Path out;
    static LabProcess.Result run;

    @BeforeAll
    static void runTheMatrix() throws Exception {
        out = dir.resolve("matrix");
        run = LabProcess.run(List.of("matrix", "--out", out.toString()), Map.of(), new byte[0], java.time.Duration.ofMinutes(15));
    }

    /**
     * What a user does in one checkout: the main job, a build (which copies the dependency jars again, with new
     * modification times), the main job again. The second run must pass like the first, with only frames on every
     * wire: the class-data archives follow the class path, and a JVM's own logging never reaches stdout.
     */
    @Test
    void theMainJobPassesAgainAfterABuildCopiedTheDependencyJarsAgain() throws Exception {
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertOnlyFramesAndNoRejectedArchive(out);

        Instant later = Instant.now().plusSeconds(5);
        for (String lib : List.of("java-server/target/lib", "bridge/target/lib")) {
            try (var jars = Files.list(LabProcess.home().resolve(lib))) {
                for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).toList()) {
                    Path copy = Files.copy(jar, jar.resolveSibling(jar.getFileName() + ".copy"));
                    Files.setLastModifiedTime(copy, FileTime.from(later));
                    Files.move(copy, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                }
            }
        }

        Path second = dir.resolve("after-a-build");
        // The Java server's archive and the bridge's (which every fixture's bridge shares) are the two the build moved.
        LabProcess.Result again = LabProcess.run(List.of("matrix", "--sdk", "java,typescript", "--cases", "01,03", "--out",
                second.toString()), Map.of(), new byte[0], java.time.Duration.ofMinutes(5));
        assertEquals(0, again.exitCode(), again.stdout() + again.stderr());
        for (String sdk : List.of("java      ", "typescript")) {
            assertTrue(again.stdout().contains(sdk + " requested 2, executed 2, passed 2; checker (history only): no problem"),
                    again.stdout());
        }
        assertOnlyFramesAndNoRejectedArchive(second);
    }

    /** A bad --sdk list is refused before anything runs: exit 1 (a refused run, as for every command), the reason named, no output folder. */
    @Test
    void aBadSdkListIsRefusedByName() throws Exception {
        for (Map.Entry<String, String> bad : Map.of("unguarded", "the unguarded control is not an SDK under test",
                "java,java", "--sdk names java twice", "cobol", "unknown server 'cobol'").entrySet()) {
            Path folder = dir.resolve("refused-" + bad.getKey().replace(',', '-'));
            LabProcess.Result refused = LabProcess.run(List.of("matrix", "--sdk", bad.getKey(), "--out", folder.toString()), Map.of(),
                    new byte[0]);
            assertEquals(1, refused.exitCode(), bad.getKey() + ": " + refused.stdout() + refused.stderr());
            assertTrue(refused.stderr().contains(bad.getValue()), bad.getKey() + ": " + refused.stderr());
            assertFalse(java.nio.file.Files.exists(folder), bad.getKey() + ": nothing written");
        }
    }

    @Test
    void everyCasePassesOnEverySdkAndTheOutcomesAgree() {
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("java       requested 12, executed 12, passed 12; checker (history only): no problem"), run.stdout());
        assertTrue(run.stdout().contains("typescript requested 12, executed 12, passed 12; checker (history only): no problem"), run.stdout());
        assertTrue(run.stdout().contains("python     requested 12, executed 12, passed 12; checker (history only): no problem"), run.stdout());
        assertTrue(run.stdout().contains("go         requested 12, executed 12, passed 12; checker (history only): no problem"), run.stdout());
        assertTrue(run.stdout().contains("rust       requested 12, executed 12, passed 12; checker (history only): no problem"), run.stdout());
        assertTrue(run.stdout().contains("outcomes   agree on every case"), run.stdout());
        // Every ordered pair: commit on one SDK, recover on another.
        List<String> sdks = List.of("java", "typescript", "python", "go", "rust");
        List<String> pairs = new java.util.ArrayList<>();
        sdks.forEach(a -> sdks.stream().filter(b -> !b.equals(a)).forEach(b -> pairs.add(a + "-to-" + b)));
        assertEquals(20, pairs.size());
        for (String pair : pairs) {
            assertTrue(run.stdout().contains(pair + " recovery across SDKs: applied, stored result, no redispatch; checker: no problem"),
                    pair + ": " + run.stdout());
        }
    }

    @Test
    void theEvidenceHasTheSeedsShape() throws Exception {
        for (String sdk : List.of("java", "typescript", "python", "go", "rust")) {
            Path attempt = out.resolve(sdk);
            assertEquals("{\n  \"executed\": 12,\n  \"passed\": 12,\n  \"requested\": 12\n}\n", Files.readString(attempt.resolve("SUMMARY.json")));
            assertEquals(12, Files.readAllLines(attempt.resolve("results.jsonl")).size());
            assertTrue(Files.exists(attempt.resolve("case-08/worker-a.transcript.log")));
            assertTrue(Files.exists(attempt.resolve("case-03/store.sqlite3")));
            assertFalse(Files.exists(attempt.resolve("case-03/store.sqlite3-wal")), "evidence databases are sealed");
            String provenance = Files.readString(attempt.resolve("provenance.json"));
            assertFalse(provenance.contains(lab.continuationreplay.core.servers.WireSettings.STATE_KEY_HEX), "no key in evidence");
            assertFormat("provenance/1", attempt.resolve("provenance.json"));
            assertFormat("requested/1", attempt.resolve("requested.json"));
            assertFormat("processes/1", attempt.resolve("case-09/processes.json"));
            for (String line : Files.readAllLines(attempt.resolve("history.jsonl"))) {
                assertEquals("history/1", ExactJson.parse(line).path("format").asText(), line);
            }
            for (String line : Files.readAllLines(attempt.resolve("results.jsonl"))) {
                assertEquals("results/2", ExactJson.parse(line).path("format").asText(), line);
            }
        }
        assertFormat("comparison/1", out.resolve("comparison.json"));
        assertFormat("controls/1", out.resolve("controls/controls.json"));
        for (String report : List.of("COMPARISON.md", "comparison.json", "report.html")) {
            assertTrue(Files.size(out.resolve(report)) > 0, report);
        }
        assertFalse(Files.readString(out.resolve("report.html")).contains("http"), "the report needs no network asset");
        JsonNode comparison = ExactJson.parse(Files.readString(out.resolve("comparison.json")));
        assertTrue(comparison.path("all_agree").asBoolean());
    }

    /** The page a reader opens first, in a real browser at a laptop's window size: every case, no sideways scrolling. */
    @Test
    void theReportShowsEveryCaseWithItsTimesAndFitsALaptopScreen() throws Exception {
        long started = System.nanoTime();
        HeadlessBrowser.Page page = HeadlessBrowser.open(out.resolve("report.html"), dir.resolve("browser"),
                Map.of("cases", "table.cases tr[data-case]", "bars", "table.cases .times .bar"));
        System.out.printf("report.html in chromium: %.1f s, %s%n", (System.nanoTime() - started) / 1e9, page);
        assertEquals(12, page.count("cases"), page.toString());
        assertEquals(12 * 5, page.count("bars"), "a time bar per case and SDK (Java, TypeScript, Python, Go, Rust): " + page);
        assertTrue(page.clientWidth() > 1300 && page.clientWidth() <= HeadlessBrowser.WIDTH, page.toString());
        assertTrue(page.fits(), "report.html needs sideways scrolling at " + HeadlessBrowser.WIDTH + " px: " + page);
        // The times come from the runner's history, one per case folder, and the report carries each case's as is.
        JsonNode comparison = ExactJson.parse(Files.readString(out.resolve("comparison.json")));
        for (String sdk : List.of("java", "typescript", "python", "go", "rust")) {
            Map<String, Long> played = new java.util.HashMap<>();
            for (String line : Files.readAllLines(out.resolve(sdk).resolve("history.jsonl"))) {
                JsonNode entry = ExactJson.parse(line);
                assertTrue(entry.path("played_ms").asLong() > 0, line);
                played.put(entry.path("folder").asText(), entry.path("played_ms").asLong());
            }
            for (JsonNode row : comparison.path("cases")) {
                assertEquals(played.get("case-" + row.path("case_id").asText()), row.path(sdk).path("played_ms").asLong(), sdk + " " + row);
            }
        }
    }

    @Test
    void noKeyIsWrittenAnywhereInTheEvidence() throws Exception {
        try (var files = Files.walk(out)) {
            for (Path file : files.filter(Files::isRegularFile).filter(p -> !p.toString().endsWith(".sqlite3")).toList()) {
                String text = Files.readString(file);
                assertFalse(text.contains(lab.continuationreplay.core.servers.WireSettings.STATE_KEY_HEX), file.toString());
                assertFalse(text.contains(lab.continuationreplay.core.servers.WireSettings.FINGERPRINT_KEY_HEX), file.toString());
            }
        }
    }

    @Test
    void verifyAgreesAndCatchesATamperedArtifact() throws Exception {
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), verified.stdout());
        assertTrue(verified.stdout().contains("\"cross-java-to-typescript\""), verified.stdout());
        assertTrue(verified.stdout().contains("\"go\""), "lab verify checks the Go column too: " + verified.stdout());
        assertTrue(verified.stdout().contains("\"python\""), "lab verify checks the Python column too: " + verified.stdout());
        assertTrue(verified.stdout().contains("\"cross-go-to-java\""), verified.stdout());
        assertTrue(verified.stdout().contains("\"cross-python-to-typescript\""), verified.stdout());
        Path copy = attemptCopy("tampered", "java");
        Path transcript = copy.resolve("java/case-01/server.transcript.log");
        Files.writeString(transcript, Files.readString(transcript).replace("\\\"replayed\\\":true", "\\\"replayed\\\":false"));
        LabProcess.Result tampered = LabProcess.run(List.of("verify", copy.toString()), Map.of(), "");
        assertEquals(1, tampered.exitCode(), tampered.stdout());
        assertTrue(tampered.stdout().contains("case 01"), tampered.stdout());
    }

    @Test
    void verifyCatchesAChangedRowAMissingArtifactAndAnExtraCase() throws Exception {
        Path row = attemptCopy("changed-row", "typescript");
        try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:sqlite:" + row.resolve("typescript/case-04/store.sqlite3"));
                java.sql.Statement statement = db.createStatement()) {
            statement.executeUpdate("UPDATE issues SET body = 'beta'");
        }
        assertRefused(row, "case 04");

        Path missing = attemptCopy("missing-artifact", "java");
        Files.delete(missing.resolve("java/case-06/bob.transcript.log"));
        assertRefused(missing, "case 06");

        Path extra = attemptCopy("extra-case", "java");
        Path results = extra.resolve("java/results.jsonl");
        List<String> lines = Files.readAllLines(results);
        Files.writeString(results, String.join("\n", lines) + "\n" + lines.get(0) + "\n");
        assertRefused(extra, "13 records in results.jsonl for 12 cases in the history");

        Path unrequested = attemptCopy("unrequested-case", "java");
        EvidenceCopies.copyTree(unrequested.resolve("java/case-01"), unrequested.resolve("java/case-13"));
        assertRefused(unrequested, "case-13/ is in the attempt but was not requested");

        Path stopped = attemptCopy("history-cut-short", "java");
        Path log = stopped.resolve("java/history.jsonl");
        List<String> history = Files.readAllLines(log);
        Files.write(log, history.subList(0, history.size() - 1));
        assertRefused(stopped, "case 12: history.jsonl has no line for it");
    }

    @Test
    void aNonFrameLineOnAServersStdoutIsAServerDefectEvenInAHistoryMadeConsistent() throws Exception {
        String warning = "[0.039s][warning][cds,dynamic] Unable to use shared archive. The top archive failed to load";
        Path copy = forged("non-frame", "java", "01", folder -> {
            Path transcript = folder.resolve("server.transcript.log");
            List<String> lines = new java.util.ArrayList<>(Files.readAllLines(transcript));
            lines.add(1, "< " + warning);
            Files.write(transcript, lines);
        });
        assertRefusedByTheJudgement(copy, "case 01: fail", "server defect: process server wrote a non-frame line to stdout: [0.039s][warning]");
    }

    /** Each forgery is made self-consistent (hashes, record, summary), so only the predicate can refuse it. */
    @Test
    void forgeriesWhoseHashesWereFixedAreRefusedByThePredicateItself() throws Exception {
        Path duplicate = forged("forged-duplicate", "java", "01",
                folder -> Forger.sql(folder, "INSERT INTO issues(title, body) VALUES ('guarded-01', 'alpha')"));
        assertRefusedByTheJudgement(duplicate, "case 01: fail", "2 issues and 1 operations, expected 1 of each");

        Path deleted = forged("forged-deleted-effect", "typescript", "03", folder -> Forger.sql(folder, "DELETE FROM issues"));
        assertRefusedByTheJudgement(deleted, "case 03: fail", "0 issues and 1 operations, expected 1 of each");

        Path flipped = forged("forged-replay-flag", "java", "01", folder -> {
            Path transcript = folder.resolve("server.transcript.log");
            String text = Files.readString(transcript);
            // the flag stands twice in a reply: in the structured content, and escaped in the text content
            assertTrue(text.contains("\"replayed\":true") && text.contains("\\\"replayed\\\":true"), "the transcript holds the flag");
            Files.writeString(transcript, text.replace("\"replayed\":true", "\"replayed\":false")
                    .replace("\\\"replayed\\\":true", "\\\"replayed\\\":false"));
        });
        String flippedVerdict = assertRefusedByTheJudgement(flipped, "case 01: fail", "differs from the frozen");
        assertTrue(flippedVerdict.contains("[false,false]"), "the outcome the forgery produced is named");

        Path exit = forged("forged-exit-status", "java", "09", folder -> {
            Path processes = folder.resolve("processes.json");
            String before = Files.readString(processes);
            assertTrue(before.contains("\"exit_status\" : 70"), before);
            Files.writeString(processes, before.replace("\"exit_status\" : 70", "\"exit_status\" : 0"));
        });
        assertRefusedByTheJudgement(exit, "case 09: fail", "process crash exited 0, expected 70");

        Path cross = attemptCopy("forged-cross-cell", "cross-java-to-typescript");
        Forger.sql(cross.resolve("cross-java-to-typescript/case-09"), "INSERT INTO issues(title, body) VALUES ('guarded-09', 'alpha')");
        Forger.reseal(cross.resolve("cross-java-to-typescript"), "09");
        assertRefusedByTheJudgement(cross, "case 09: fail", "2 issues and 1 operations, expected 1 of each");
    }

    /** The controls are checked from their history too: a witness removed, hashes fixed, controls.json derived again. */
    @Test
    void aControlWhoseDuplicateWasRemovedNoLongerWitnesses() throws Exception {
        Path copy = dir.resolve("forged-control");
        EvidenceCopies.copyTree(out, copy);
        Path folder = copy.resolve("controls/unguarded-identical-continuation");
        Forger.sql(folder, "DELETE FROM issues WHERE id = (SELECT MAX(id) FROM issues)");
        Forger.resealControl(copy, "unguarded-identical-continuation");
        LabProcess.Result verdict = LabProcess.run(List.of("verify", copy.toString()), Map.of(), "");
        assertEquals(1, verdict.exitCode(), verdict.stdout());
        JsonNode report = ExactJson.parse(verdict.stdout());
        assertEquals(List.of("control unguarded-identical-continuation: 1 issues, expected 2"),
                texts(report.path("controls").path("problems")), verdict.stdout());
        assertEquals(3, report.path("controls").path("passed").asInt(), verdict.stdout());

        Path unsealed = dir.resolve("tampered-control");
        EvidenceCopies.copyTree(out, unsealed);
        Forger.sql(unsealed.resolve("controls/guarded-unsafe-new-identity"), "DELETE FROM issues");
        assertRefused(unsealed, "control guarded-unsafe-new-identity: artifacts differ from the hashes the run recorded");
    }

    /** A change to one case's artifacts in a copy of the run. */
    private interface Change {
        void apply(Path caseFolder) throws Exception;
    }

    /** A folder named {@code name} holding a copy of the run's attempt {@code attempt} alone, for a forgery in it. */
    private static Path attemptCopy(String name, String attempt) throws Exception {
        Path copy = dir.resolve(name);
        EvidenceCopies.copyTree(out.resolve(attempt), copy.resolve(attempt));
        return copy;
    }

    /**
     * A copy of one attempt of the run, in a folder named {@code name}, with {@code change} made to one case, then
     * resealed by the forger. Only that attempt is copied: lab verify judges the attempts it finds, so the refusal can
     * only come from the forged one, and four columns are not verified again for each forgery.
     */
    private static Path forged(String name, String sdk, String caseId, Change change) throws Exception {
        Path copy = attemptCopy(name, sdk);
        change.apply(copy.resolve(sdk).resolve("case-" + caseId));
        Forger.reseal(copy.resolve(sdk), caseId);
        return copy;
    }

    /** An evidence run written before format versions: the checker names each document and the remedy, nothing else. */
    @Test
    void verifyRefusesARunWrittenBeforeFormatVersionsWithASentence() throws Exception {
        Path older = dir.resolve("older-run");
        EvidenceCopies.copyTree(out, older);
        // What a lab before format versions wrote: requested.json a bare array, records without a format member,
        // and no history.jsonl (the runner wrote the results itself).
        Path requested = older.resolve("java/requested.json");
        Files.writeString(requested, ExactJson.mapper().writerWithDefaultPrettyPrinter()
                .writeValueAsString(ExactJson.parse(Files.readString(requested)).path("cases")) + "\n");
        Files.delete(older.resolve("java/history.jsonl"));
        rewriteRecords(older.resolve("java/results.jsonl"), record -> record.remove("format"));
        LabProcess.Result verdict = LabProcess.run(List.of("verify", older.toString()), Map.of(), "");
        assertEquals(1, verdict.exitCode(), verdict.stdout() + verdict.stderr());
        JsonNode report = ExactJson.parse(verdict.stdout());
        assertEquals(List.of(
                "java/requested.json has no format version (it is a JSON array, not an object): written by a lab before"
                        + " format versions; re-run lab matrix",
                "java/history.jsonl is missing: the run left no history (a lab before format \"history/1\" wrote none;"
                        + " re-run lab matrix)",
                "java/results.jsonl: record 1 has no format version: written by a lab before format versions; re-run lab matrix",
                "java/results.jsonl: 11 more records refused for their format"),
                texts(report.path("java").path("problems")));
        assertEquals(List.of(), texts(report.path("typescript").path("problems")), "the untouched attempt still verifies");
        assertFalse(verdict.stderr().contains("Exception"), verdict.stderr());
    }

    /** A run of the lab before the checker split (results/1, no history.jsonl) is named by its version. */
    @Test
    void verifyRefusesARunWhoseRunnerStillWroteTheResults() throws Exception {
        Path older = attemptCopy("results-1-run", "typescript");
        EvidenceCopies.copyTree(out.resolve("java"), older.resolve("java"));
        Files.delete(older.resolve("typescript/history.jsonl"));
        rewriteRecords(older.resolve("typescript/results.jsonl"), record -> record.put("format", "results/1"));
        LabProcess.Result verdict = LabProcess.run(List.of("verify", older.toString()), Map.of(), "");
        assertEquals(1, verdict.exitCode(), verdict.stdout() + verdict.stderr());
        JsonNode report = ExactJson.parse(verdict.stdout());
        assertEquals(List.of(
                "typescript/history.jsonl is missing: the run left no history (a lab before format \"history/1\" wrote none;"
                        + " re-run lab matrix)",
                "typescript/results.jsonl: record 1: format \"results/1\" is not one this checker reads (it reads \"results/2\")",
                "typescript/results.jsonl: 11 more records refused for their format"),
                texts(report.path("typescript").path("problems")));
        assertTrue(report.path("java").path("problems").isArray(), "the untouched attempt is verified: " + verdict.stdout());
        assertEquals(List.of(), texts(report.path("java").path("problems")), "the untouched attempt still verifies");
    }

    private static void rewriteRecords(Path results, java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> change)
            throws Exception {
        List<String> records = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(results)) {
            com.fasterxml.jackson.databind.node.ObjectNode record = (com.fasterxml.jackson.databind.node.ObjectNode) ExactJson.parse(line);
            change.accept(record);
            records.add(lab.continuationreplay.vectors.CanonicalJson.canonical(record));
        }
        Files.write(results, records);
    }

    private static void assertFormat(String tag, Path file) throws Exception {
        JsonNode document = ExactJson.parse(Files.readString(file));
        assertEquals("format", document.fieldNames().next(), file + ": the format comes first");
        assertEquals(tag, document.path("format").asText(), file.toString());
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new java.util.ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }

    /** lab verify refuses the forged copy by the checker's judgement, not by a hash or a derived record; its stdout. */
    private static String assertRefusedByTheJudgement(Path evidence, String which, String message) throws Exception {
        LabProcess.Result verdict = LabProcess.run(List.of("verify", evidence.toString()), Map.of(), "");
        assertEquals(1, verdict.exitCode(), verdict.stdout());
        assertTrue(verdict.stdout().contains(which), verdict.stdout());
        assertTrue(verdict.stdout().contains(message), verdict.stdout());
        assertFalse(verdict.stdout().contains("artifacts differ from the hashes"), "the hashes were fixed: " + verdict.stdout());
        assertFalse(verdict.stdout().contains("differs from the record derived"), "the record was derived again: " + verdict.stdout());
        assertFalse(verdict.stdout().contains("SUMMARY.json does not match"), "the summary was derived again: " + verdict.stdout());
        return verdict.stdout();
    }

    @Test
    void eachSdkMustShapeItsRefusalsItsOwnWay() throws Exception {
        var spec = lab.continuationreplay.cases.Cases.spec(lab.continuationreplay.cases.CaseId.CHANGED_REQUEST_STATE);
        var javaCase = lab.continuationreplay.checker.CaseFacts.read(out.resolve("java/case-05"));
        var typescriptCase = lab.continuationreplay.checker.CaseFacts.read(out.resolve("typescript/case-05"));
        assertEquals(List.of(), lab.continuationreplay.checker.Predicate.violations(spec, javaCase, "java"));
        assertEquals(List.of(), lab.continuationreplay.checker.Predicate.violations(spec, typescriptCase, "typescript"));
        assertEquals(List.of("typescript must refuse through tool_result_isError"),
                lab.continuationreplay.checker.Predicate.violations(spec, javaCase, "typescript"));
        assertEquals(List.of("java must refuse through jsonrpc_error"),
                lab.continuationreplay.checker.Predicate.violations(spec, typescriptCase, "java"));
    }

    @Test
    void theLostReplyDemoTellsTheStoryOnBothSdks() throws Exception {
        for (String sdk : List.of("java", "typescript")) {
            LabProcess.Result demo = LabProcess.run(List.of("demo", "lost-reply", "--output-dir", dir.resolve("demo").toString(),
                    "--sdk", sdk), Map.of(), "");
            assertEquals(0, demo.exitCode(), demo.stdout() + demo.stderr());
            JsonNode summary = ExactJson.parse(demo.stdout());
            assertEquals("input_required", summary.path("first_round").asText());
            assertEquals("unknown", summary.path("transport").asText());
            assertEquals("applied", summary.path("status").path("state").asText());
            assertEquals("created 1", summary.path("status").path("storedResult").asText());
            assertTrue(summary.path("replay").path("replayed").asBoolean());
            assertEquals(1, summary.path("issues").asInt());
            assertEquals(1, summary.path("operations").asInt());
        }
    }

    private static void assertRefused(Path evidence, String problem) throws Exception {
        LabProcess.Result verdict = LabProcess.run(List.of("verify", evidence.toString()), Map.of(), "");
        assertEquals(1, verdict.exitCode(), verdict.stdout());
        assertTrue(verdict.stdout().contains(problem), verdict.stdout());
    }

    private static void assertOnlyFramesAndNoRejectedArchive(Path out) throws Exception {
        int received = 0;
        try (var files = Files.walk(out)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".transcript.log")) {
                    for (String line : Files.readAllLines(file)) {
                        if (line.startsWith("<")) { // "< " or "<b ": the latter is never a frame
                            received++;
                            assertTrue(line.startsWith("< "), file + ": not plain text: " + line);
                            assertEquals("2.0", ExactJson.parse(line.substring(2)).path("jsonrpc").textValue(), file + ": " + line);
                        }
                    }
                } else if (name.endsWith(".stderr.log")) {
                    assertFalse(Files.readString(file).contains("Unable to use shared archive"), file + " used a stale archive");
                }
            }
        }
        assertTrue(received > 20, "the runs' transcripts hold the replies (" + received + ")");
    }
}
