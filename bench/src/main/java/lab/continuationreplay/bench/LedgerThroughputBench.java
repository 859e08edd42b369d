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
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.ledger.PostgresRunLedger;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerLocation;

/**
 * Benchmark 2, like with like: {@code ledgerProcesses} long-lived child JVMs ({@link LedgerWorker}) on one ledger
 * file, warmed up on both kinds of work, then timed in {@value #ROUNDS} rounds. In each round all workers are released
 * together on the bare commit loop (one row per {@code BEGIN IMMEDIATE … COMMIT}, the ledger's own connection
 * settings, same file) and then together on distinct operations through {@code IssueLedger.applyIssueOnce}, or the
 * other way round (alternating from round to round); each phase is timed from the release to the last {@code done}.
 * A round's ratio is its ledger commits/s over its bare commits/s; the goal's ratio is the median round's. Then one
 * worker alone does both (the one-process figures), and all of them race one operation id: exactly one effect.
 * {@link #runOnPostgres} measures the same on one schema of an embedded PostgreSQL (benchmark 8).
 */
final class LedgerThroughputBench {
    /** Rounds of the interleaved measurement: the goal's ratio is the median round's. */
    static final int ROUNDS = 5;
    static final String RACED_ID = "raced-operation";

    private LedgerThroughputBench() {}

    private enum Phase {
        BARE("bare"), LEDGER("ledger"), SHAPED("shaped");

        final String command;

        Phase(String command) {
            this.command = command;
        }
    }

    static BenchResult run(BenchPlan plan, PrintStream progress) throws Exception {
        Path folder = Files.createDirectories(plan.work().resolve("ledger"));
        Path database = folder.resolve("ledger.sqlite3");
        IssueLedger.open(database, WireSettings.BACKEND).close();
        Measured m = measure(plan, folder, database.toString(), Map.of(), table -> StoreRows.count(database, table));
        int processes = m.processes();
        int perProcess = m.perProcess();
        Goal floor = Goal.atLeast("ledger_vs_floor",
                        processes + " warm processes: distinct operations >= 0.7 of their bare commit loop's commits/s",
                        processes + " processes, distinct operations", m.ledgerRate(),
                        "the same " + processes + " processes, bare commit loop", m.bareRate(), "commits/s", 0.7)
                .withRounds(m.ratios());
        floor = m.withFloor(floor);
        progress.printf("bench      ledger: %d warm processes, %d rounds: bare loop %.0f commits/s, ledger %.0f commits/s,"
                + " median round ratio %.3f; one process alone: bare %.0f, ledger %.0f commits/s%n", processes, ROUNDS,
                m.bareRate(), m.ledgerRate(), floor.ratio(), m.soloBare(), m.soloLedger());
        progress.printf("bench      ledger: race of %d on one id: all answered in %.1f ms, %d issue row(s)%n", processes,
                m.raceNanos() / 1e6, m.raceIssues());
        List<Goal> goals = List.of(floor,
                Goal.equal("race_one_effect", "racing one operation id: exactly one effect",
                        "issue rows the race added", m.raceIssues(), "one effect", 1, "rows", 1));
        return new BenchResult("ledger_throughput", "Ledger throughput against the physical floor",
                processes + " long-lived child JVMs on one ledger file (WAL, synchronous FULL), warmed up with " + perProcess
                        + " bare commits and " + perProcess + " operations each, then " + ROUNDS + " rounds: all released"
                        + " together on " + perProcess + " bare commits each (one row per BEGIN IMMEDIATE transaction, the"
                        + " ledger's connection settings, same file) and on " + perProcess + " distinct atomic operations each"
                        + " through IssueLedger, and on " + perProcess + " transactions of the shaped floor (an effect row and"
                        + " an operation row), in rotated order, each phase timed from the release to the last answer;"
                        + " the goal's ratio is the median round's ledger/bare commits/s; then one worker alone does both; the"
                        + " race: the " + processes + " workers apply one operation id",
                m.figures(), List.copyOf(goals), m.notes());
    }

    /**
     * Benchmark 2 on PostgreSQL: the same {@code ledgerProcesses} workers and rounds, on one schema of a PostgreSQL the
     * bench starts for itself (the embedded one, as {@code lab matrix --ledger postgres} starts it: fsync and
     * synchronous_commit on). The bare loop is a plain {@code BEGIN}, one {@code INSERT}, {@code COMMIT} per operation
     * on a session with the ledger's own settings, so both sides wait for the same WAL flush per commit; the ledger
     * side is {@code IssueLedger.applyIssueOnce}, a {@code SERIALIZABLE} transaction that a lost race runs again.
     */
    static BenchResult runOnPostgres(BenchPlan plan, PrintStream progress) throws Exception {
        Path folder = Files.createDirectories(plan.work().resolve("ledger-postgres"));
        long starting = System.nanoTime();
        try (PostgresRunLedger postgres = PostgresRunLedger.embedded()) {
            double startMs = (System.nanoTime() - starting) / 1e6;
            Map<String, String> environment = new HashMap<>();
            postgres.environment(folder).forEach((variable, value) -> {
                if (value != null) {
                    environment.put(variable, value);
                }
            });
            LedgerLocation.Postgres location = (LedgerLocation.Postgres) new TrustedEnvironment(environment).ledger();
            IssueLedger.open(location, WireSettings.BACKEND).close();
            long rolledBackBefore = rolledBack(postgres.database(), true);
            Measured m = measure(plan, folder, LedgerWorker.POSTGRES, environment, table -> count(location, table));
            // every lost race is a rolled-back transaction run again; the bare loop never rolls back
            long rolledBack = rolledBack(postgres.database(), false) - rolledBackBefore;
            // the warm-up and the rounds on every worker, one worker alone, and each worker's apply in the race
            long ledgerOperations = (long) m.processes() * m.perProcess() * (ROUNDS + 1) + m.perProcess() + m.processes();
            m.figures().put("rolled_back_transactions", rolledBack);
            m.figures().put("rolled_back_per_ledger_operation", Round.of((double) rolledBack / ledgerOperations));
            int processes = m.processes();
            int perProcess = m.perProcess();
            Goal floor = Goal.atLeast("postgres_ledger_vs_floor",
                            processes + " warm processes on PostgreSQL: distinct operations >= 0.7 of their bare"
                                    + " INSERT+COMMIT loop's commits/s",
                            processes + " processes, distinct operations", m.ledgerRate(),
                            "the same " + processes + " processes, bare INSERT+COMMIT loop", m.bareRate(), "commits/s", 0.7)
                    .withRounds(m.ratios());
            floor = m.withFloor(floor);
            progress.printf("bench      ledger on PostgreSQL: %d warm processes, %d rounds: bare loop %.0f commits/s, ledger"
                    + " %.0f commits/s, median round ratio %.3f; one process alone: bare %.0f, ledger %.0f commits/s%n",
                    processes, ROUNDS, m.bareRate(), m.ledgerRate(), floor.ratio(), m.soloBare(), m.soloLedger());
            progress.printf("bench      ledger on PostgreSQL: race of %d on one id: all answered in %.1f ms, %d issue row(s)%n",
                    processes, m.raceNanos() / 1e6, m.raceIssues());
            m.figures().put("server_start_ms", Round.of(startMs));
            List<Goal> goals = List.of(floor,
                    Goal.equal("postgres_race_one_effect", "racing one operation id on PostgreSQL: exactly one effect",
                            "issue rows the race added", m.raceIssues(), "one effect", 1, "rows", 1));
            return new BenchResult("ledger_throughput_postgres", "Ledger throughput on PostgreSQL against the bare commit loop",
                    processes + " long-lived child JVMs on one schema of an embedded PostgreSQL 14 (fsync on,"
                            + " synchronous_commit on), warmed up with " + perProcess + " bare commits and " + perProcess
                            + " operations each, then " + ROUNDS + " rounds: all released together on " + perProcess
                            + " bare commits each (BEGIN, one INSERT, COMMIT on a session with the ledger's settings, same"
                            + " server and schema) and on " + perProcess + " distinct atomic operations each through"
                            + " IssueLedger (READ COMMITTED, a lock on the operation id), and on " + perProcess
                            + " transactions of the shaped floor (an effect row and an operation row), in rotated order, each phase timed"
                            + " from the release to the last answer; the goal's ratio is the median round's ledger/bare"
                            + " commits/s; then one worker alone does both; the race: the " + processes
                            + " workers apply one operation id",
                    m.figures(), List.copyOf(goals), m.notes());
        }
    }

    /** A row count of the benchmark's ledger, read by the bench itself (never through a worker). */
    @FunctionalInterface
    private interface Rows {
        long count(String table) throws Exception;
    }

    /** What one measurement gave: the pooled rates, the rounds' ratios, the figures as reported, and notes. */
    private record Measured(int processes, int perProcess, double bareRate, double ledgerRate, List<Double> ratios,
            double soloBare, double soloLedger, long raceNanos, long raceIssues, ObjectNode figures, List<String> notes,
            List<Double> floorRatios) {

        /** The goal with its floor: the shaped loop's commits/s over the bare loop's, the median round's. */
        Goal withFloor(Goal goal) {
            return goal.withFloor(SHAPED_FLOOR, Goal.median(floorRatios));
        }
    }

    /** What the floor of rows 5 and 6 times (see {@link BareCommits#shapedNanos}). */
    static final String SHAPED_FLOOR = "the shaped loop: an effect row and an operation row per transaction, no reads, no checks";

    /**
     * The measurement both stores share: start the workers on {@code target} (a file, or {@code postgres} with the
     * ledger in {@code environment}), warm them up, time the interleaved rounds, one worker alone, and the race; then
     * check the row counts against the commits made.
     */
    private static Measured measure(BenchPlan plan, Path folder, String target, Map<String, String> environment, Rows rows)
            throws Exception {
        int processes = plan.ledgerProcesses();
        int perProcess = plan.ledgerOperationsPerProcess();
        long perPhase = (long) perProcess * processes;
        long bareDone = 0;
        long ledgerDone = 0;
        List<Double> ratios = new ArrayList<>();
        List<Double> floorRatios = new ArrayList<>();
        ArrayNode roundFigures = JsonNodeFactory.instance.arrayNode();
        Totals totals;
        double soloBare;
        double soloLedger;
        Race race;
        try (Workers workers = Workers.start(target, environment, processes, folder)) {
            // warm-up: the JIT, the driver, the file's pages and the WAL, for both kinds of work
            workers.phase(Phase.BARE, perProcess);
            workers.phase(Phase.LEDGER, perProcess);
            workers.phase(Phase.SHAPED, perProcess);
            bareDone += perPhase;
            ledgerDone += perPhase;
            totals = timeRounds(workers, perProcess, perPhase, ratios, floorRatios, roundFigures);
            bareDone += perPhase * ROUNDS;
            ledgerDone += perPhase * ROUNDS;
            // one process alone, warm, on the same file: the figures without contention for the write lock
            soloBare = perProcess / (workers.solo(Phase.BARE, perProcess) / 1e9);
            soloLedger = perProcess / (workers.solo(Phase.LEDGER, perProcess) / 1e9);
            bareDone += perProcess;
            ledgerDone += perProcess;
            race = Race.run(workers, rows);
        }
        long issues = rows.count("issues");
        long bareRows = rows.count(LedgerWorker.BARE_TABLE);
        long shapedDone = perPhase * (ROUNDS + 1);
        if (rows.count(BareCommits.OPERATIONS_TABLE) != shapedDone || rows.count(BareCommits.EFFECTS_TABLE) != shapedDone) {
            throw new IllegalStateException("the shaped loop's rows are not the " + shapedDone + " it committed");
        }
        if (race.issuesBefore() != ledgerDone || bareRows != bareDone) {
            throw new IllegalStateException(race.issuesBefore() + " issue rows after " + ledgerDone + " distinct operations, "
                    + bareRows + " bare rows after " + bareDone + " bare commits");
        }
        long raceIssues = issues - race.issuesBefore();
        double bareRate = perPhase * ROUNDS / (totals.bareNanos() / 1e9);
        double ledgerRate = perPhase * ROUNDS / (totals.ledgerNanos() / 1e9);
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.put("processes", processes);
        figures.put("rounds", ROUNDS);
        figures.put("operations_per_process_per_phase", perProcess);
        figures.put("ledger_commits_per_s", Round.of(ledgerRate));
        figures.put("bare_jdbc_commits_per_s", Round.of(bareRate));
        figures.put("shaped_floor_commits_per_s", Round.of(perPhase * ROUNDS / (totals.shapedNanos() / 1e9)));
        // operations sent again after the ledger gave up on lost races (PostgreSQL only; see LedgerWorker.apply)
        figures.put("client_resends_after_lost_races", race.clientRetries());
        figures.set("round_figures", roundFigures);
        ObjectNode solo = figures.putObject("one_process");
        solo.put("bare_jdbc_commits_per_s", Round.of(soloBare));
        solo.put("ledger_commits_per_s", Round.of(soloLedger));
        race.putFigures(figures.putObject("race"), processes, raceIssues);
        List<String> notes = new ArrayList<>();
        if (race.firstAnswers() != 1 || race.sameEffect() != 1) {
            notes.add("race answers: " + race.lines());
        }
        return new Measured(processes, perProcess, bareRate, ledgerRate, ratios, soloBare, soloLedger, race.nanos(), raceIssues,
                figures, notes, floorRatios);
    }

    /** The nanoseconds of the timed rounds' phases, summed over the rounds. */
    private record Totals(long bareNanos, long ledgerNanos, long shapedNanos) {}

    /**
     * The interleaved rounds: each round's ledger/bare ratio goes to {@code ratios}, its shaped/bare ratio to
     * {@code floorRatios}, its rates to {@code roundFigures}.
     */
    private static Totals timeRounds(Workers workers, int perProcess, long perPhase, List<Double> ratios, List<Double> floorRatios,
            ArrayNode roundFigures) throws IOException {
        long bareNanos = 0;
        long ledgerNanos = 0;
        long shapedNanos = 0;
        List<Phase> phases = List.of(Phase.BARE, Phase.LEDGER, Phase.SHAPED);
        for (int round = 0; round < ROUNDS; round++) {
            // rotated: no phase always runs right after another's burst of commits and checkpoints
            Map<Phase, Long> nanos = new java.util.EnumMap<>(Phase.class);
            for (int k = 0; k < phases.size(); k++) {
                Phase phase = phases.get((k + round) % phases.size());
                nanos.put(phase, workers.phase(phase, perProcess));
            }
            bareNanos += nanos.get(Phase.BARE);
            ledgerNanos += nanos.get(Phase.LEDGER);
            shapedNanos += nanos.get(Phase.SHAPED);
            double bareRate = perPhase / (nanos.get(Phase.BARE) / 1e9);
            double ledgerRate = perPhase / (nanos.get(Phase.LEDGER) / 1e9);
            double shapedRate = perPhase / (nanos.get(Phase.SHAPED) / 1e9);
            ratios.add(ledgerRate / bareRate);
            floorRatios.add(shapedRate / bareRate);
            ObjectNode figures = roundFigures.addObject();
            figures.put("first", phases.get(round % phases.size()).command);
            figures.put("bare_commits_per_s", Round.of(bareRate));
            figures.put("ledger_commits_per_s", Round.of(ledgerRate));
            figures.put("shaped_floor_commits_per_s", Round.of(shapedRate));
        }
        return new Totals(bareNanos, ledgerNanos, shapedNanos);
    }

    /**
     * All workers applying one operation id at once: the issue rows before it, each worker's answer, the time until
     * the last answer, and the operations the workers sent again after lost races over the whole run.
     */
    private record Race(long issuesBefore, List<String> lines, long nanos, long clientRetries) {
        static Race run(Workers workers, Rows rows) throws Exception {
            long issuesBefore = rows.count("issues");
            long start = System.nanoTime();
            List<String> lines = workers.all("race " + RACED_ID);
            long nanos = System.nanoTime() - start;
            long clientRetries = 0;
            for (String line : workers.all("retries 0")) {
                if (!line.startsWith("retries ")) {
                    throw new IOException("a ledger worker answered " + line + " to retries");
                }
                clientRetries += Long.parseLong(line.substring("retries ".length()));
            }
            return new Race(issuesBefore, lines, nanos, clientRetries);
        }

        long firstAnswers() {
            return lines.stream().filter(l -> l.startsWith("answer false ")).count();
        }

        long sameEffect() {
            return lines.stream().map(l -> l.substring(l.lastIndexOf(' ') + 1)).distinct().count();
        }

        void putFigures(ObjectNode raceFigures, int processes, long raceIssues) {
            raceFigures.put("processes", processes);
            raceFigures.put("all_answered_ms", Round.of(nanos / 1e6));
            raceFigures.put("issue_rows", raceIssues);
            raceFigures.put("first_answers", firstAnswers());
            raceFigures.put("distinct_effect_ids_answered", sameEffect());
        }
    }

    /**
     * The database's rolled-back transactions so far ({@code pg_stat_database.xact_rollback}). A session reports its
     * counts when it ends, through the statistics collector and with a delay, so after the workers have ended the
     * count is read until it stops moving (two equal reads 300 ms apart, at most 5 s); {@code once} reads it once.
     */
    private static long rolledBack(LedgerLocation.Postgres database, boolean once) throws SQLException, InterruptedException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            long last = -1;
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (true) {
                long now;
                try (ResultSet count = statement.executeQuery(
                        "SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database()")) {
                    count.next();
                    now = count.getLong(1);
                }
                if (once || now == last || System.nanoTime() - deadline > 0) {
                    return now;
                }
                last = now;
                Thread.sleep(300);
            }
        }
    }

    /** {@code SELECT COUNT(*)} of a table of the PostgreSQL ledger (its schema is in the location's URL). */
    private static long count(LedgerLocation.Postgres location, String table) throws SQLException {
        try (Connection connection = location.connect(); Statement statement = connection.createStatement();
                ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
            count.next();
            return count.getLong(1);
        }
    }

    /** The long-lived workers, each with its command pipe and answer reader. */
    private static final class Workers implements AutoCloseable {
        private final List<Process> processes;
        private final List<BufferedReader> outputs;

        private Workers(List<Process> processes, List<BufferedReader> outputs) {
            this.processes = processes;
            this.outputs = outputs;
        }

        static Workers start(String target, Map<String, String> environment, int count, Path folder) throws Exception {
            Workers workers = new Workers(new ArrayList<>(), new ArrayList<>());
            try {
                for (int i = 0; i < count; i++) {
                    List<String> command = new ArrayList<>(ChildJvm.command(LedgerWorker.class));
                    command.add(target);
                    command.add("worker-" + i);
                    Process worker = Exec.command(command).addingEnvironment(environment).withStdout(Exec.Io.PIPE)
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
