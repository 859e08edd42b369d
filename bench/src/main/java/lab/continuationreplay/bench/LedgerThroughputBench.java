package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.store.ledger.IssueLedger;

/**
 * Benchmark 2: {@code ledgerProcesses} child JVMs ({@link LedgerWorker}) released together on one ledger file, each
 * applying its own distinct operations, against JMH's bare JDBC commit loop on the same file system; then the same
 * number of processes racing one operation id: time from the release until every process has its answer, and the
 * rows left (exactly one issue, one first answer).
 */
final class LedgerThroughputBench {
    private LedgerThroughputBench() {}

    static BenchResult run(BenchPlan plan, PrintStream progress) throws Exception {
        Path folder = Files.createDirectories(plan.work().resolve("ledger"));
        Map<String, Double> jmh = JmhRun.opsPerSecond(LedgerJmh.class.getName() + "\\.", Map.of("dir",
                new String[] {folder.resolve("jmh").toString()}), plan.jmh(), folder.resolve("jmh.log"));
        double bare = jmh.get("bareCommit");
        double oneLedger = jmh.get("ledgerApply");
        progress.printf("bench      ledger: bare JDBC loop %.0f commits/s, one in-process ledger %.0f applies/s%n", bare, oneLedger);

        Path distinct = folder.resolve("distinct.sqlite3");
        int perProcess = plan.ledgerOperationsPerProcess();
        int processes = plan.ledgerProcesses();
        createLedger(distinct);
        Released run = release(plan, distinct, processes, i -> List.of(Integer.toString(perProcess), "worker-" + i, "distinct"), folder);
        long total = (long) perProcess * processes;
        long issues = StoreRows.count(distinct, "issues");
        if (issues != total) {
            throw new IllegalStateException(issues + " issue rows after " + total + " distinct operations");
        }
        double commitsPerSecond = total / (run.nanos() / 1e9);
        progress.printf("bench      ledger: %d processes %.0f commits/s%n", processes, commitsPerSecond);

        Path raced = folder.resolve("race.sqlite3");
        createLedger(raced);
        Released race = release(plan, raced, processes, i -> List.of("1", "raced-operation", "same"), folder);
        long raceIssues = StoreRows.count(raced, "issues");
        long firstAnswers = race.lines().stream().filter(l -> l.startsWith("answer false ")).count();
        long sameEffect = race.lines().stream().map(l -> l.substring(l.lastIndexOf(' ') + 1)).distinct().count();
        progress.printf("bench      ledger: race of %d on one id: all answered in %.1f ms, %d issue row(s)%n", processes,
                race.nanos() / 1e6, raceIssues);

        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.put("processes", processes);
        figures.put("operations_per_process", perProcess);
        figures.put("ledger_commits_per_s", Round.of(commitsPerSecond));
        figures.put("ledger_wall_ms", Round.of(run.nanos() / 1e6));
        figures.put("bare_jdbc_commits_per_s", Round.of(bare));
        figures.put("one_process_ledger_applies_per_s", Round.of(oneLedger));
        ObjectNode raceFigures = figures.putObject("race");
        raceFigures.put("processes", processes);
        raceFigures.put("all_answered_ms", Round.of(race.nanos() / 1e6));
        raceFigures.put("issue_rows", raceIssues);
        raceFigures.put("first_answers", firstAnswers);
        raceFigures.put("distinct_effect_ids_answered", sameEffect);
        List<Goal> goals = List.of(
                Goal.atLeast("ledger_vs_floor", processes + " processes >= 0.7 of the bare loop's commits/s",
                        processes + " processes, distinct operations", commitsPerSecond, "bare JDBC loop", bare, "commits/s", 0.7),
                Goal.equal("race_one_effect", "racing one operation id: exactly one effect",
                        "issue rows after the race", raceIssues, "one effect", 1, "rows", 1));
        List<String> notes = new ArrayList<>();
        if (firstAnswers != 1 || sameEffect != 1) {
            notes.add("race answers: " + race.lines());
        }
        return new BenchResult("ledger_throughput", "Ledger throughput against the physical floor",
                "JMH (throughput) bare JDBC loop: one row per BEGIN IMMEDIATE transaction, WAL, synchronous FULL, on the"
                        + " same file system; " + processes + " child JVMs released together, each applying " + perProcess
                        + " distinct atomic operations through IssueLedger on one file, timed from the release to the last"
                        + " answer; the race: " + processes + " child JVMs applying one operation id",
                figures, goals, notes);
    }

    private record Released(long nanos, List<String> lines) {}

    private static void createLedger(Path database) throws Exception {
        IssueLedger.open(database, WireSettings.BACKEND).close();
    }

    /** Starts the workers, waits until each is ready, releases them together and times until the last answer. */
    private static Released release(BenchPlan plan, Path database, int count, java.util.function.IntFunction<List<String>> args,
            Path folder) throws Exception {
        List<Process> workers = new ArrayList<>();
        List<BufferedReader> outputs = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                List<String> command = new ArrayList<>(ChildJvm.command(LedgerWorker.class));
                command.add(database.toString());
                command.addAll(args.apply(i));
                Process worker = Exec.command(command).withStdout(Exec.Io.PIPE)
                        .withStderr(Exec.Io.appendTo(folder.resolve("workers.stderr.log"))).start();
                workers.add(worker);
                outputs.add(new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8)));
            }
            for (int i = 0; i < count; i++) {
                expect(outputs.get(i).readLine(), "ready", i);
            }
            long start = System.nanoTime();
            for (Process worker : workers) {
                OutputStream in = worker.getOutputStream();
                in.write("go\n".getBytes(StandardCharsets.UTF_8));
                in.flush();
            }
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String line = outputs.get(i).readLine();
                if (line == null) {
                    throw new IllegalStateException("ledger worker " + i + " ended without an answer (see workers.stderr.log)");
                }
                lines.add(line);
            }
            long nanos = System.nanoTime() - start;
            for (Process worker : workers) {
                if (!worker.waitFor(30, TimeUnit.SECONDS) || worker.exitValue() != 0) {
                    throw new IllegalStateException("a ledger worker did not exit 0");
                }
            }
            return new Released(nanos, lines);
        } finally {
            for (Process worker : workers) {
                if (worker.isAlive()) {
                    worker.destroyForcibly();
                }
            }
        }
    }

    private static void expect(String line, String expected, int worker) throws IOException {
        if (!expected.equals(line)) {
            throw new IOException("ledger worker " + worker + " said " + line + " instead of " + expected + " (see workers.stderr.log)");
        }
    }
}
