package lab.continuationreplay.cli.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cli.LabProcess;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each check's fail side, on a small stdio server written for these tests (test resource probe/defect_server.py, the
 * Python standard library only) with one defect at a time: exactly the checks that defect breaks fail, with their
 * kind (a server answering every replay with a new row breaks p2a, p3, p7 and p9; one trusting an unsigned state
 * ignores changed arguments too), and the server without a defect passes every check. Not one of the lab's servers,
 * so the probe is judged on a stranger.
 */
class ProbeDefectsIT {
    @TempDir
    static Path dir;

    /** Each defect, and exactly the checks that must fail on it ({@code none}: the server without a defect). */
    private static final List<String> DEFECTS = List.of(
        "none             | 0 | ",
        "no-dedupe        | 1 | p2a fail duplicate;p2b fail duplicate;p3 fail duplicate;p7 fail duplicate;p9 fail accepted",
        "refuse-retry     | 1 | p2a fail lost;p2b fail lost;p7 fail lost",
        "different-answer | 1 | p2a fail lost;p2b fail lost;p3 fail lost;p7 fail lost;p9 fail accepted",
        "unsigned-state   | 1 | p4 fail accepted;p5 fail forgeable-state;p6 fail accepted",
        "unbound-principal | 1 | p6 fail accepted",
        "unbound-args     | 1 | p4 fail accepted",
        "unbound-answers  | 1 | p9 fail accepted",
        "in-memory        | 1 | p7 fail duplicate",
        "racy             | 1 | p3 fail duplicate");

    /**
     * The same server's single-round tool (place_order, order_id its key): the s checks, and a weak verdict that never
     * fails the run. Lines whose verdict is not pass are listed; every other check must pass.
     */
    private static final List<String> SINGLE_ROUND_DEFECTS = List.of(
        "none              | 0 | ",
        "no-dedupe         | 1 | s2 fail duplicate;s3 fail duplicate;s4 fail duplicate;s7 fail duplicate",
        "refuse-retry      | 1 | s2 fail lost;s4 fail lost",
        "different-answer  | 0 | s2 weak different-answer;s4 weak different-answer;s7 weak different-answer",
        "lost-effect       | 1 | s8 fail lost-effect",
        "in-memory         | 1 | s4 fail duplicate",
        "racy              | 1 | s3 fail duplicate;s7 fail duplicate",
        "unbound-args      | 1 | s6 fail accepted",
        "unbound-principal | 1 | s6b fail accepted",
        "cached            | 1 | s9 fail lost-effect");

    /**
     * The same server at earlier protocol versions (DEFECT_PROTOCOL): the probe finds server/discover unknown, starts
     * the server again with initialize, and plays the single-round checks; create_order then asks for its note with
     * an elicitation/create request in the middle of its one tools/call, which the probe answers.
     */
    private static final List<String> LEGACY_DEFECTS = List.of(
        "2025-06-18 | place_order  | none      | 0 | ",
        "2025-06-18 | place_order  | no-dedupe | 1 | s2 fail duplicate;s3 fail duplicate;s4 fail duplicate;s7 fail duplicate",
        "2025-11-25 | create_order | none      | 0 | ");

    /**
     * The check for each defect fails, and only where it should; lab verify derives the same. The defects run four
     * at a time, each on its own server and database: a probe mostly waits on its server, and one at a time took 28 s.
     */
    @org.junit.jupiter.api.Test
    void theCheckForEachDefectFailsAndOnlyWhereItShould() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        Map<String, java.util.concurrent.Future<String>> found = new java.util.LinkedHashMap<>();
        for (String row : DEFECTS) {
            String[] cells = row.split("\\|", -1);
            found.put(cells[0].strip(), pool.submit(() -> judged("create_order", cells[0].strip(), Integer.parseInt(cells[1].strip()),
                    cells[2].strip())));
        }
        for (String row : SINGLE_ROUND_DEFECTS) {
            String[] cells = row.split("\\|", -1);
            found.put("place_order " + cells[0].strip(), pool.submit(() -> judged("place_order", cells[0].strip(),
                    Integer.parseInt(cells[1].strip()), cells[2].strip())));
        }
        for (String row : LEGACY_DEFECTS) {
            String[] cells = row.split("\\|", -1);
            String version = cells[0].strip();
            found.put(version + " " + cells[1].strip() + " " + cells[2].strip(), pool.submit(() -> judged(cells[1].strip(),
                    cells[2].strip(), Integer.parseInt(cells[3].strip()), cells[4].strip(), version)));
        }
        pool.shutdown();
        List<String> wrong = new java.util.ArrayList<>();
        for (Map.Entry<String, java.util.concurrent.Future<String>> entry : found.entrySet()) {
            String problem = entry.getValue().get(5, java.util.concurrent.TimeUnit.MINUTES);
            if (problem != null) {
                wrong.add(entry.getKey() + ": " + problem);
            }
        }
        assertEquals(List.of(), wrong);

        // the runner's word on the tool's shape counts for nothing: said otherwise, hashes fixed, the history is refused
        Path forged = dir.resolve("forged-shape");
        lab.continuationreplay.cli.EvidenceCopies.copyTree(dir.resolve(name("place_order", "none")), forged);
        Path events = forged.resolve("run/events.jsonl");
        java.nio.file.Files.writeString(events, java.nio.file.Files.readString(events)
                .replace("\"detail\":\"single-round\"", "\"detail\":\"multi-round\""));
        java.nio.file.Files.delete(forged.resolve("history.jsonl"));
        lab.continuationreplay.history.RunLog.append(forged.resolve("history.jsonl"), forged.resolve("run"), null);
        LabProcess.Result refused = LabProcess.run(List.of("verify", forged.toString()), Map.of(), "");
        assertEquals(1, refused.exitCode(), refused.stdout());
        assertTrue(refused.stdout().contains("but its first call took one round"), refused.stdout());
    }

    /** What is wrong with the probe's verdicts on {@code defect}, or null when they are exactly as expected. */
    private static String judged(String tool, String defect, int exit, String failing) throws Exception {
        return judged(tool, defect, exit, failing, "2026-07-28");
    }

    private static String judged(String tool, String defect, int exit, String failing, String version) throws Exception {
        boolean legacy = !version.equals("2026-07-28");
        LabProcess.Result run = probe(tool, defect, List.of(), legacy ? Map.of("DEFECT_PROTOCOL", version) : Map.of(), legacy ? version + "-" : "");
        if (!run.stdout().startsWith("protocol " + version + "\n")) {
            return "the first line does not name the protocol:\n" + run.stdout();
        }
        if (run.exitCode() != exit) {
            return "exit " + run.exitCode() + ", not " + exit + ":\n" + run.stdout() + run.stderr();
        }
        List<String> expected = failing.isEmpty() ? List.of() : List.of(failing.split(";"));
        for (String line : expected) {
            if (!run.stdout().contains("\n" + line + " ") && !run.stdout().startsWith(line + " ")) {
                return "no '" + line + "' in\n" + run.stdout();
            }
        }
        long other = run.stdout().lines().filter(l -> l.matches("[psr][0-9][0-9a-z]* (fail|weak) .*")).count();
        if (other != expected.size()) {
            return other + " checks failed or were weak, not only the " + expected.size() + " for this defect:\n" + run.stdout();
        }
        // lab verify's own derivation, in this JVM: one lab start per row cost more than the rest of the test. The command
        // and its exit status are run as a process on the forged copy above and in LabProbeIT.
        lab.continuationreplay.probe.cli.ProbeVerify.Report verified =
                lab.continuationreplay.probe.cli.ProbeVerify.of(dir.resolve((legacy ? version + "-" : "") + name(tool, defect)));
        return verified.ok() == (exit == 0) ? null : "lab verify's derivation says " + (verified.ok() ? "ok" : "not ok") + ":\n" + verified.json();
    }

    /** p10 waits out the state's lifetime: a server that checks it refuses, one that does not commits (both at once). */
    @org.junit.jupiter.api.Test
    void anExpiredStateIsRefused() throws Exception {
        var checked = java.util.concurrent.CompletableFuture.supplyAsync(() -> ttlRun("none"));
        var ignored = java.util.concurrent.CompletableFuture.supplyAsync(() -> ttlRun("ttl-ignored"));
        LabProcess.Result none = checked.get(3, java.util.concurrent.TimeUnit.MINUTES);
        LabProcess.Result ttlIgnored = ignored.get(3, java.util.concurrent.TimeUnit.MINUTES);
        assertTrue(none.stdout().lines().anyMatch(l -> l.startsWith("p10 pass ")), none.stdout() + none.stderr());
        assertTrue(ttlIgnored.stdout().lines().anyMatch(l -> l.startsWith("p10 fail accepted ")), ttlIgnored.stdout() + ttlIgnored.stderr());
    }

    private static LabProcess.Result ttlRun(String defect) {
        try {
            return probe("create_order", defect, List.of("--state-ttl", "2"), Map.of("DEFECT_STATE_TTL", "2"), "");
        } catch (Exception e) {
            throw new IllegalStateException(defect + ": " + e.getMessage(), e);
        }
    }

    /**
     * The server's own counting tool as the observer (--effects-tool): the same verdict as the database; and a reading
     * changed in the history, hashes fixed, is refused, since the checker reads the tool's recorded answer again.
     */
    @org.junit.jupiter.api.Test
    void aCountingToolObservesAsTheDatabaseDoesAndItsReadingsAreWitnessed() throws Exception {
        Path server = LabProcess.home().resolve("lab-cli/src/test/resources/probe/defect_server.py");
        Path database = dir.resolve("tool-observed.sqlite3");
        Path out = dir.resolve("tool-observed");
        LabProcess.Result run = LabProcess.run(List.of("probe", "--command", "python3 '" + server + "' '" + database + "' no-dedupe",
                "--tool", "create_order", "--args", "{\"order_id\":\"o-{{fresh}}\",\"item\":\"book\"}",
                "--effects-tool", "count_orders", "--out", out.toString()), Map.of(), new byte[0], Duration.ofMinutes(2));
        assertEquals(1, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("p2a fail duplicate"), run.stdout());
        Path events = out.resolve("run/events.jsonl");
        List<String> lines = new java.util.ArrayList<>(java.nio.file.Files.readAllLines(events));
        for (int i = 0; i < lines.size(); i++) {
            var event = (com.fasterxml.jackson.databind.node.ObjectNode) lab.continuationreplay.vectors.ExactJson.parse(lines.get(i));
            if (event.path("check").asText().equals("p2a") && event.path("phase").asText().equals("after")) {
                event.put("value", event.path("value").asLong() - 1);
                lines.set(i, event.toString());
            }
        }
        java.nio.file.Files.write(events, lines);
        java.nio.file.Files.delete(out.resolve("history.jsonl"));
        lab.continuationreplay.history.RunLog.append(out.resolve("history.jsonl"), out.resolve("run"), null);
        LabProcess.Result verdict = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(1, verdict.exitCode(), verdict.stdout());
        assertTrue(verdict.stdout().contains("the tool's recorded answer says"), verdict.stdout());
    }

    /** --config: the same options from a JSON file; a key that is no option is refused, exit 2. */
    @org.junit.jupiter.api.Test
    void aConfigFileGivesTheOptions() throws Exception {
        Path server = LabProcess.home().resolve("lab-cli/src/test/resources/probe/defect_server.py");
        Path database = dir.resolve("configured.sqlite3");
        var config = lab.continuationreplay.vectors.ExactJson.mapper().createObjectNode();
        config.put("command", "python3 '" + server + "' '" + database + "' unbound-answers");
        config.put("tool", "create_order");
        config.putObject("args").put("order_id", "o-{{fresh}}").put("item", "book");
        config.putArray("effects-sqlite").add(database.toString()).add("orders");
        config.putObject("answer").putObject("note").put("action", "accept").putObject("content").put("note", "gift wrap");
        config.put("out", dir.resolve("configured").toString());
        Path file = java.nio.file.Files.writeString(dir.resolve("probe.json"), config.toString());
        LabProcess.Result run = LabProcess.run(List.of("probe", "--config", file.toString()), Map.of(), new byte[0], Duration.ofMinutes(2));
        assertEquals(1, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("p9 fail accepted"), run.stdout());
        String events = java.nio.file.Files.readString(dir.resolve("configured/run/events.jsonl"));
        assertTrue(events.contains("\"note\":\"gift wrap\""), "the given answer was sent");
        config.put("effects", "wrong");
        config.put("out", dir.resolve("configured-bad").toString());
        java.nio.file.Files.writeString(file, config.toString());
        LabProcess.Result bad = LabProcess.run(List.of("probe", "--config", file.toString()), Map.of(), "");
        assertEquals(2, bad.exitCode(), bad.stdout() + bad.stderr());
        assertEquals("lab probe: --config: \"effects\" is not an option of lab probe", bad.stderr().strip());
    }

    private static String name(String tool, String defect) {
        return (tool.equals("create_order") ? "" : tool + "-") + defect;
    }

    private static LabProcess.Result probe(String tool, String defect, List<String> more, Map<String, String> environment,
            String prefix) throws Exception {
        Path server = LabProcess.home().resolve("lab-cli/src/test/resources/probe/defect_server.py");
        String name = prefix + name(tool, defect) + (more.isEmpty() ? "" : "-ttl");
        Path database = dir.resolve(name + ".sqlite3");
        List<String> arguments = new java.util.ArrayList<>(List.of("probe", "--command", "python3 '" + server + "' '" + database
                + "' " + defect, "--tool", tool, "--args", "{\"order_id\":\"o-{{fresh}}\",\"item\":\"book\"}",
                "--effects-sqlite", database.toString(), "orders", "--other-env", "DEFECT_PRINCIPAL=bob",
                "--out", dir.resolve(name).toString()));
        if (tool.equals("place_order")) {
            // its order_id is an idempotency key: s6, s6b and (slow: true holds a call two seconds) s7
            arguments.addAll(List.of("--key-arg", "order_id", "--slow-args", "{\"order_id\":\"s-{{fresh}}\",\"item\":\"book\",\"slow\":true}"));
        }
        arguments.addAll(more);
        return LabProcess.run(arguments, environment, new byte[0], Duration.ofMinutes(2));
    }
}
