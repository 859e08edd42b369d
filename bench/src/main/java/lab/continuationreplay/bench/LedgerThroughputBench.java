package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.store.ledger.IssueLedger;

/**
 * Benchmark 2, like with like: {@code ledgerProcesses} long-lived child JVMs ({@link LedgerWorker}) on one ledger
 * file, warmed up on both kinds of work, then timed in {@value #ROUNDS} rounds. In each round all workers are released
 * together on the bare commit loop (one row per {@code BEGIN IMMEDIATE … COMMIT}, the ledger's own connection
 * settings, same file) and then together on distinct operations through {@code IssueLedger.applyIssueOnce}, or the
 * other way round (alternating from round to round); each phase is timed from the release to the last {@code done}.
 * A round's ratio is its ledger commits/s over its bare commits/s; the goal's ratio is the median round's. Then one
 * worker alone does both (the one-process figures), and all of them race one operation id: exactly one effect.
 */
final class LedgerThroughputBench {
    /** Rounds of the interleaved measurement: the goal's ratio is the median round's. */
    static final int ROUNDS = 5;
    static final String RACED_ID = "raced-operation";

    private LedgerThroughputBench() {}

    private enum Phase {
        BARE("bare"), LEDGER("ledger");

        final String command;

        Phase(String command) {
            this.command = command;
        }
    }

    static BenchResult run(BenchPlan plan, PrintStream progress) throws Exception {
        Path folder = Files.createDirectories(plan.work().resolve("ledger"));
        Path database = folder.resolve("ledger.sqlite3");
        IssueLedger.open(database, WireSettings.BACKEND).close();
        int processes = plan.ledgerProcesses();
        int perProcess = plan.ledgerOperationsPerProcess();
        long perPhase = (long) perProcess * processes;
        long bareDone = 0;
        long ledgerDone = 0;
        List<Double> ratios = new ArrayList<>();
        ArrayNode roundFigures = JsonNodeFactory.instance.arrayNode();
        long bareNanos = 0;
        long ledgerNanos = 0;
        double soloBare;
        double soloLedger;
        List<String> raceLines;
        long raceNanos;
        long issuesBeforeRace;
        try (Workers workers = Workers.start(database, processes, folder)) {
            // warm-up: the JIT, the driver, the file's pages and the WAL, for both kinds of work
            workers.phase(Phase.BARE, perProcess);
            workers.phase(Phase.LEDGER, perProcess);
            bareDone += perPhase;
            ledgerDone += perPhase;
            for (int round = 0; round < ROUNDS; round++) {
                // alternated: neither phase always runs right after the other's burst of commits and checkpoints
                List<Phase> order = round % 2 == 0 ? List.of(Phase.BARE, Phase.LEDGER) : List.of(Phase.LEDGER, Phase.BARE);
                long bare = 0;
                long ledger = 0;
                for (Phase phase : order) {
                    long nanos = workers.phase(phase, perProcess);
                    if (phase == Phase.BARE) {
                        bare = nanos;
                    } else {
                        ledger = nanos;
                    }
                }
                bareNanos += bare;
                ledgerNanos += ledger;
                bareDone += perPhase;
                ledgerDone += perPhase;
                double bareRate = perPhase / (bare / 1e9);
                double ledgerRate = perPhase / (ledger / 1e9);
                ratios.add(ledgerRate / bareRate);
                ObjectNode figures = roundFigures.addObject();
                figures.put("first", order.get(0).command);
                figures.put("bare_commits_per_s", Round.of(bareRate));
                figures.put("ledger_commits_per_s", Round.of(ledgerRate));
            }
            // one process alone, warm, on the same file: the figures without contention for the write lock
            soloBare = perProcess / (workers.solo(Phase.BARE, perProcess) / 1e9);
            soloLedger = perProcess / (workers.solo(Phase.LEDGER, perProcess) / 1e9);
            bareDone += perProcess;
            ledgerDone += perProcess;

            issuesBeforeRace = StoreRows.count(database, "issues");
            long start = System.nanoTime();
            raceLines = workers.all("race " + RACED_ID);
            raceNanos = System.nanoTime() - start;
        }
        long issues = StoreRows.count(database, "issues");
        long bareRows = StoreRows.count(database, LedgerWorker.BARE_TABLE);
        if (issuesBeforeRace != ledgerDone || bareRows != bareDone) {
            throw new IllegalStateException(issuesBeforeRace + " issue rows after " + ledgerDone + " distinct operations, "
                    + bareRows + " bare rows after " + bareDone + " bare commits");
        }
        long raceIssues = issues - issuesBeforeRace;
        long firstAnswers = raceLines.stream().filter(l -> l.startsWith("answer false ")).count();
        long sameEffect = raceLines.stream().map(l -> l.substring(l.lastIndexOf(' ') + 1)).distinct().count();

        double bareRate = perPhase * ROUNDS / (bareNanos / 1e9);
        double ledgerRate = perPhase * ROUNDS / (ledgerNanos / 1e9);
        Goal floor = Goal.atLeast("ledger_vs_floor",
                        processes + " warm processes: distinct operations >= 0.7 of their bare commit loop's commits/s",
                        processes + " processes, distinct operations", ledgerRate,
                        "the same " + processes + " processes, bare commit loop", bareRate, "commits/s", 0.7)
                .withRounds(ratios);
        progress.printf("bench      ledger: %d warm processes, %d rounds: bare loop %.0f commits/s, ledger %.0f commits/s,"
                + " median round ratio %.3f; one process alone: bare %.0f, ledger %.0f commits/s%n", processes, ROUNDS,
                bareRate, ledgerRate, floor.ratio(), soloBare, soloLedger);
        progress.printf("bench      ledger: race of %d on one id: all answered in %.1f ms, %d issue row(s)%n", processes,
                raceNanos / 1e6, raceIssues);

        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.put("processes", processes);
        figures.put("rounds", ROUNDS);
        figures.put("operations_per_process_per_phase", perProcess);
        figures.put("ledger_commits_per_s", Round.of(ledgerRate));
        figures.put("bare_jdbc_commits_per_s", Round.of(bareRate));
        figures.set("round_figures", roundFigures);
        ObjectNode solo = figures.putObject("one_process");
        solo.put("bare_jdbc_commits_per_s", Round.of(soloBare));
        solo.put("ledger_commits_per_s", Round.of(soloLedger));
        ObjectNode raceFigures = figures.putObject("race");
        raceFigures.put("processes", processes);
        raceFigures.put("all_answered_ms", Round.of(raceNanos / 1e6));
        raceFigures.put("issue_rows", raceIssues);
        raceFigures.put("first_answers", firstAnswers);
        raceFigures.put("distinct_effect_ids_answered", sameEffect);
        List<Goal> goals = List.of(floor,
                Goal.equal("race_one_effect", "racing one operation id: exactly one effect",
                        "issue rows the race added", raceIssues, "one effect", 1, "rows", 1));
        List<String> notes = new ArrayList<>();
        if (firstAnswers != 1 || sameEffect != 1) {
            notes.add("race answers: " + raceLines);
        }
        return new BenchResult("ledger_throughput", "Ledger throughput against the physical floor",
                processes + " long-lived child JVMs on one ledger file (WAL, synchronous FULL), warmed up with " + perProcess
                        + " bare commits and " + perProcess + " operations each, then " + ROUNDS + " rounds: all released"
                        + " together on " + perProcess + " bare commits each (one row per BEGIN IMMEDIATE transaction, the"
                        + " ledger's connection settings, same file) and on " + perProcess + " distinct atomic operations each"
                        + " through IssueLedger, in alternating order, each phase timed from the release to the last answer;"
                        + " the goal's ratio is the median round's ledger/bare commits/s; then one worker alone does both; the"
                        + " race: the " + processes + " workers apply one operation id",
                figures, List.copyOf(goals), notes);
    }

    /** The long-lived workers, each with its command pipe and answer reader. */
    private static final class Workers implements AutoCloseable {
        private final List<Process> processes;
        private final List<BufferedReader> outputs;

        private Workers(List<Process> processes, List<BufferedReader> outputs) {
            this.processes = processes;
            this.outputs = outputs;
        }

        static Workers start(Path database, int count, Path folder) throws Exception {
            Workers workers = new Workers(new ArrayList<>(), new ArrayList<>());
            try {
                for (int i = 0; i < count; i++) {
                    List<String> command = new ArrayList<>(ChildJvm.command(LedgerWorker.class));
                    command.add(database.toString());
                    command.add("worker-" + i);
                    Process worker = Exec.command(command).withStdout(Exec.Io.PIPE)
                            .withStderr(Exec.Io.appendTo(folder.resolve("workers.stderr.log"))).start();
                    workers.processes.add(worker);
                    workers.outputs.add(new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8)));
                }
                for (int i = 0; i < count; i++) {
                    String line = workers.outputs.get(i).readLine();
                    if (!"ready".equals(line)) {
                        throw new IOException("ledger worker " + i + " said " + line + " instead of ready (see workers.stderr.log)");
                    }
                }
                return workers;
            } catch (Exception e) {
                workers.destroy();
                throw e;
            }
        }

        /** Releases every worker on {@code n} commits of the phase; nanos from the release to the last answer. */
        long phase(Phase phase, int n) throws IOException {
            long start = System.nanoTime();
            List<String> lines = all(phase.command + " " + n);
            long nanos = System.nanoTime() - start;
            for (String line : lines) {
                if (!line.startsWith("done ")) {
                    throw new IOException("a ledger worker answered " + line + " to " + phase.command);
                }
            }
            return nanos;
        }

        /** Worker 0 alone on {@code n} commits of the phase: its own loop's nanos. */
        long solo(Phase phase, int n) throws IOException {
            send(0, phase.command + " " + n);
            String line = receive(0);
            if (!line.startsWith("done ")) {
                throw new IOException("ledger worker 0 answered " + line + " to " + phase.command);
            }
            return Long.parseLong(line.substring("done ".length()));
        }

        /** Sends one command to every worker, then reads every answer. */
        List<String> all(String command) throws IOException {
            for (int i = 0; i < processes.size(); i++) {
                send(i, command);
            }
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < processes.size(); i++) {
                lines.add(receive(i));
            }
            return lines;
        }

        private void send(int worker, String command) throws IOException {
            OutputStream in = processes.get(worker).getOutputStream();
            in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        private String receive(int worker) throws IOException {
            String line = outputs.get(worker).readLine();
            if (line == null) {
                throw new IOException("ledger worker " + worker + " ended without an answer (see workers.stderr.log)");
            }
            return line;
        }

        @Override
        public void close() throws Exception {
            try {
                for (int i = 0; i < processes.size(); i++) {
                    send(i, "quit");
                    processes.get(i).getOutputStream().close();
                }
                for (Process worker : processes) {
                    if (!worker.waitFor(30, TimeUnit.SECONDS) || worker.exitValue() != 0) {
                        throw new IllegalStateException("a ledger worker did not exit 0 (see workers.stderr.log)");
                    }
                }
            } finally {
                destroy();
            }
        }

        private void destroy() {
            for (Process worker : processes) {
                if (worker.isAlive()) {
                    worker.destroyForcibly();
                }
            }
        }
    }
}
