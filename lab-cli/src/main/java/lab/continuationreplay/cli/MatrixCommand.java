package lab.continuationreplay.cli;

import lab.continuationreplay.core.ledger.PostgresRunLedger;
import lab.continuationreplay.core.ledger.RunLedger;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.checker.AttemptCheck;
import lab.continuationreplay.checker.ControlsCheck;
import lab.continuationreplay.checker.Verdict;
import lab.continuationreplay.containers.InContainerMatrix;
import lab.continuationreplay.containers.RuntimeCell;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.matrix.report.MatrixMarkdown;
import lab.continuationreplay.matrix.report.ReportFiles;
import lab.continuationreplay.matrix.report.ResultTable;
import lab.continuationreplay.matrix.run.MatrixRunner;
import lab.continuationreplay.matrix.run.PhaseTimes;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.matrix.vectors.FingerprintImplementations;
import lab.continuationreplay.matrix.vectors.FingerprintLanguage;
import lab.continuationreplay.matrix.vectors.VectorComparison;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.FingerprintVectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "matrix",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the twelve frozen cases against each SDK's server over real stdio (and, with --transport, over"
                    + " Streamable HTTP) and keeps the history (transcripts,"
                    + " databases, exit statuses, hashes); the checker, the same one lab verify runs, then derives every"
                    + " outcome and verdict from that history alone, and the SDKs are compared.",
            "Writes OUT/<sdk>/ (history: case-NN/, history.jsonl, requested.json, provenance.json; derived: results.jsonl,"
                    + " SUMMARY.json, MATRIX.md), OUT/cross-*/, OUT/controls/ and OUT/COMPARISON.md, comparison.json,"
                    + " report.html. Exit 0 only if every case passes on every SDK, every control witnesses, and the SDKs"
                    + " agree on every outcome.",
            "With --in-container the same runs once per runtime cell in a container, into OUT/<cell>/, and"
                    + " OUT/runtimes.md compares the cells."
        })
final class MatrixCommand implements Callable<Integer> {
    /** The width of the first column of the summary lines: the longest SDK or HTTP-cases attempt name, at least 10. */
    private String column = "%-10s";

    @Option(names = "--out", description = "Output folder (default: target/attempts/matrix-<UTC time>, or in-container-<UTC time>). Never overwritten.")
    Path out;

    @Option(names = "--sdk", split = ",", description = "Comma-separated SDKs under test (java, typescript, python, go, rust) or all (default: all)."
            + " Every ordered pair of them is a cross-SDK cell.")
    List<String> sdks = List.of("all");

    @Option(names = "--cases", split = ",", description = "Only these case ids, e.g. 01,08 or h1 (default: all twelve,"
            + " and over HTTP also the HTTP cases h1..h3).")
    List<String> only;

    @Option(names = "--transport", description = "stdio, http or all (default: stdio). Over HTTP each server listens on a"
            + " free loopback port, principals are bearer tokens minted for the run, and the HTTP-only cases run beside"
            + " the twelve into OUT/http-cases-<sdk>/.")
    String transport = "stdio";

    @Option(names = "--in-container", description = "Run the matrix inside containers on a local Docker engine, once per"
            + " runtime cell (images built here, never pulled; network none), verify each cell on the host and write"
            + " OUT/<cell>/ plus the runtime table OUT/runtimes.md and runtimes.json. See docs/containers.md.")
    boolean inContainer;

    @Option(names = "--runtime", split = ",", paramLabel = "CELL", description = "With --in-container: the runtime cells,"
            + " e.g. jdk17-node20,jdk25-node22 (default: all four of jdk17|jdk25 x node20|node22).")
    List<String> runtimes;

    @Option(names = "--ledger", description = "sqlite or postgres (default: sqlite, a file per case). postgres uses the"
            + " database of WIRE_LEDGER_URL (with WIRE_LEDGER_USER and WIRE_LEDGER_PASSWORD_FILE) or, without it, starts"
            + " a PostgreSQL for the run (the binaries come with the lab; as root it runs as the account crlab-postgres);"
            + " every case folder gets its own schema, and each case's rows are left as store.rows.json.")
    String ledgerChoice = "sqlite";

    @Option(names = "--jobs", description = "How many cases (of any SDK, cross-SDK cell or the controls) play side by side,"
            + " each on its own databases (default: 2, or 1 on a one-core machine).")
    Integer jobs;

    @Option(names = "--timings", description = "At the end, the run's wall time and where it went: the phases (process"
            + " starts, case scripts, evidence, verification, vectors, reports), slowest first.")
    boolean timings;

    private final long startedNanos = System.nanoTime();

    @Override
    public Integer call() throws Exception {
        Path home = LabHome.resolve();
        List<String> sdks = this.sdks.contains("all") ? ServerKind.sdkLabels() : this.sdks;
        List<ServerKind> kinds = ServerKind.underTest(sdks);
        Path folder = OutputFolder.of(out, home, inContainer ? "in-container" : "matrix");
        checkOptions();
        if (inContainer) {
            return inContainers(home, folder, sdks);
        }
        List<Transport> transports = transport.equals("all") ? List.of(Transport.STDIO, Transport.HTTP)
                : List.of(Transport.fromLabel(transport));
        List<CaseSpec> cases = MatrixRunner.cases(only);
        List<CaseSpec> httpCases = transports.contains(Transport.HTTP) ? MatrixRunner.httpCases(only) : List.of();
        if (cases.isEmpty() && httpCases.isEmpty()) {
            throw new IllegalArgumentException("no case matches " + only + (transports.contains(Transport.HTTP) ? ""
                    : " over stdio (the HTTP cases h1..h3 need --transport http or all)"));
        }
        Files.createDirectories(folder);
        Plan plan = new Plan(home, folder, kinds, transports, cases, httpCases);
        Collected collected = play(plan, openLedger());
        return report(plan, collected);
    }

    /** What one run plays: the SDKs, transports and cases, into which folder. */
    private record Plan(Path home, Path folder, List<ServerKind> kinds, List<Transport> transports, List<CaseSpec> cases,
            List<CaseSpec> httpCases) {}

    /** Each attempt's verdict, by attempt name and kind, the summary lines in their fixed order, and the controls. */
    private record Collected(Map<String, List<JsonNode>> records, Map<String, List<JsonNode>> crossCells,
            Map<String, List<JsonNode>> httpCaseRecords, ControlsCheck.Witnesses controls, List<String> lines, boolean ok) {}

    /** Every ordered pair of the SDKs run: commit on the first, recover on the second, one ledger. */
    private static List<ServerKind[]> pairs(List<ServerKind> kinds) {
        List<ServerKind[]> pairs = new ArrayList<>();
        for (ServerKind crashOn : kinds) {
            for (ServerKind recoverOn : kinds) {
                if (crashOn != recoverOn) {
                    pairs.add(new ServerKind[] {crashOn, recoverOn});
                }
            }
        }
        return pairs;
    }

    private void checkOptions() {
        if (runtimes != null && !inContainer) {
            throw new IllegalArgumentException("--runtime needs --in-container");
        }
        if (!ledgerChoice.equals("sqlite") && !ledgerChoice.equals("postgres")) {
            throw new IllegalArgumentException("--ledger is sqlite or postgres, not " + ledgerChoice);
        }
        if (inContainer && ledgerChoice.equals("postgres")) {
            throw new IllegalArgumentException("--ledger postgres does not run --in-container yet");
        }
    }

    /** The same matrix once per runtime cell, in containers; the images carry every SDK column. */
    private Integer inContainers(Path home, Path folder, List<String> sdks) throws Exception {
        List<RuntimeCell> cells = RuntimeCell.parseAll(runtimes);
        List<String> inImages = InContainerMatrix.SDKS_IN_IMAGES;
        List<String> missing = this.sdks.contains("all") ? List.of() : sdks.stream().filter(l -> !inImages.contains(l)).toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("the container images carry " + String.join(" and ", inImages) + " only, not "
                    + String.join(", ", missing));
        }
        List<String> passThrough = new ArrayList<>(List.of("--sdk", String.join(",", this.sdks.contains("all") ? inImages : this.sdks)));
        if (only != null) {
            passThrough.addAll(List.of("--cases", String.join(",", only)));
        }
        Files.createDirectories(folder);
        return InContainerMatrix.run(home, folder, cells, passThrough, Streams.stdout(), Streams.stderr());
    }

    /** A file per case (SQLite), or one PostgreSQL for the run: the user's by WIRE_LEDGER_URL, else one started here. */
    private RunLedger openLedger() throws Exception {
        if (!ledgerChoice.equals("postgres")) {
            return RunLedger.SQLITE;
        }
        long starting = System.nanoTime();
        String given = System.getenv(lab.continuationreplay.store.config.TrustedEnvironment.LEDGER_URL);
        PostgresRunLedger postgres = given != null && !given.isEmpty() ? PostgresRunLedger.given(System.getenv())
                : PostgresRunLedger.embedded();
        Streams.stderr().printf("ledger: %s, started in %d ms%n", postgres.describe(), (System.nanoTime() - starting) / 1_000_000);
        return postgres;
    }

    /**
     * Every attempt (each SDK, each cross-SDK cell, the HTTP-only cases, the controls) has its own folders and
     * databases, so they run side by side. Cases are the unit of work: {@code jobs} of them play at once, from any
     * attempt, so a long column does not run alone at the end; an attempt only hands out its cases and writes its
     * history in order, and needs no slot. The runner writes history only; the checker then derives every verdict
     * from it, as lab verify does. The summary is assembled in the fixed order afterwards.
     */
    private Collected play(Plan plan, RunLedger runLedger) throws Exception {
        ExecutorService slots = Jobs.pool(jobs);
        ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool();
        try (ProgressBoard board = board(plan)) {
            Map<String, Future<Verdict>> sdkRuns = new LinkedHashMap<>();
            Map<String, Future<Verdict>> crossRuns = new LinkedHashMap<>();
            Map<String, Future<Verdict>> httpCaseRuns = new LinkedHashMap<>();
            for (Transport over : plan.transports()) {
                for (ServerKind sdk : plan.kinds()) {
                    String name = over.attempt(sdk.label());
                    if (!plan.cases().isEmpty()) {
                        MatrixRunner.Attempt attempt = new MatrixRunner.Attempt(sdk, over, name, plan.folder(), plan.home(),
                                board, slots, runLedger);
                        sdkRuns.put(name, pool.submit(() -> checkedAfter(plan, attempt, plan.cases())));
                    }
                }
                if (plan.cases().stream().anyMatch(c -> c.id() == CaseId.CRASH_AFTER_COMMIT)) {
                    for (ServerKind[] pair : pairs(plan.kinds())) {
                        String name = over.attempt(MatrixRunner.crossCellName(pair[0], pair[1]));
                        MatrixRunner.Attempt attempt = new MatrixRunner.Attempt(pair[0], over, name, plan.folder(), plan.home(),
                                board, slots, runLedger);
                        crossRuns.put(name, pool.submit(() -> checkedAfter(plan, attempt, MatrixRunner.crossCell(pair[0], pair[1]))));
                    }
                }
            }
            if (!plan.httpCases().isEmpty()) {
                for (ServerKind sdk : plan.kinds()) {
                    String name = MatrixRunner.httpCasesName(sdk);
                    MatrixRunner.Attempt attempt = new MatrixRunner.Attempt(sdk, Transport.HTTP, name, plan.folder(), plan.home(),
                            board, slots, runLedger);
                    httpCaseRuns.put(name, pool.submit(() -> checkedAfter(plan, attempt, plan.httpCases())));
                }
            }
            // Cross cells' names run past the column, as they always have; a stdio run keeps its ten characters.
            int width = java.util.stream.Stream.of(sdkRuns.keySet(), httpCaseRuns.keySet())
                    .flatMap(java.util.Collection::stream).mapToInt(String::length).max().orElse(0);
            column = "%-" + Math.max(10, width) + "s";
            Future<ControlsCheck.Witnesses> controlRun = pool.submit(() -> {
                MatrixRunner.runControls(plan.folder(), plan.home(), slots, runLedger, board);
                return ControlsCheck.deriveAndWrite(plan.folder());
            });
            return collect(sdkRuns, crossRuns, httpCaseRuns, controlRun);
        } finally {
            pool.shutdownNow();
            slots.shutdownNow();
            if (runLedger instanceof PostgresRunLedger postgres) {
                postgres.close();
            }
        }
    }

    private static final String CROSS_ROW = "cross-SDK";

    /**
     * The progress board of {@code plan}: a row per SDK column and transport (its HTTP-only cases counted in its HTTP
     * row), one for the cross-SDK cells of each transport, one for the controls.
     */
    private static ProgressBoard board(Plan plan) {
        List<ProgressBoard.Row> rows = new ArrayList<>();
        boolean crossCells = plan.cases().stream().anyMatch(c -> c.id() == CaseId.CRASH_AFTER_COMMIT);
        for (Transport over : plan.transports()) {
            for (ServerKind sdk : plan.kinds()) {
                if (!plan.cases().isEmpty()) {
                    rows.add(new ProgressBoard.Row(over.attempt(sdk.label()), plan.cases().size()));
                }
            }
            if (crossCells) {
                rows.add(new ProgressBoard.Row(over.attempt(CROSS_ROW), pairs(plan.kinds()).size()));
            }
        }
        for (ServerKind sdk : plan.kinds()) {
            if (!plan.httpCases().isEmpty()) {
                rows.add(new ProgressBoard.Row(Transport.HTTP.attempt(sdk.label()), plan.httpCases().size()));
            }
        }
        rows.add(new ProgressBoard.Row(Layout.CONTROLS, lab.continuationreplay.cases.Control.values().length));
        return new ProgressBoard(Streams.stderr(), rows, MatrixCommand::boardRow, ProgressBoard.liveFor(System::getenv), System::nanoTime);
    }

    /** The board's row of an attempt: its own, but one row for the cross-SDK cells and the HTTP row for HTTP-only cases. */
    static String boardRow(String attempt) {
        if (attempt.startsWith(Layout.CROSS_PREFIX)) {
            return attempt.endsWith(Layout.HTTP_SUFFIX) ? Transport.HTTP.attempt(CROSS_ROW) : CROSS_ROW;
        }
        return attempt.startsWith(Layout.HTTP_CASES_PREFIX)
                ? Transport.HTTP.attempt(attempt.substring(Layout.HTTP_CASES_PREFIX.length())) : attempt;
    }

    /** One attempt played, then checked from its history alone. */
    private static Verdict checkedAfter(Plan plan, MatrixRunner.Attempt attempt, List<CaseSpec> cases) throws Exception {
        MatrixRunner.run(cases, attempt);
        return checked(plan.folder().resolve(attempt.name()));
    }

    /** Each attempt's verdict as it ends, and its summary line, in the fixed order. */
    private Collected collect(Map<String, Future<Verdict>> sdkRuns, Map<String, Future<Verdict>> crossRuns,
            Map<String, Future<Verdict>> httpCaseRuns, Future<ControlsCheck.Witnesses> controlRun) throws Exception {
        Map<String, List<JsonNode>> records = new LinkedHashMap<>();
        Map<String, List<JsonNode>> crossCells = new LinkedHashMap<>();
        Map<String, List<JsonNode>> httpCaseRecords = new LinkedHashMap<>();
        List<String> lines = new ArrayList<>();
        boolean ok = true;
        for (Map.Entry<String, Future<Verdict>> run : sdkRuns.entrySet()) {
            Verdict verdict = Jobs.result(run.getValue());
            records.put(run.getKey(), verdict.records());
            ok &= verdict.ok();
            lines.add(String.format(column + " requested %d, executed %d, passed %d; checker (history only): %s", run.getKey(),
                    verdict.requested(), verdict.executed(), verdict.passed(), verdict.problems().isEmpty() ? "no problem" : verdict.problems()));
        }
        for (Map.Entry<String, Future<Verdict>> run : crossRuns.entrySet()) {
            Verdict verdict = Jobs.result(run.getValue());
            crossCells.put(run.getKey(), verdict.records());
            ok &= verdict.ok();
            lines.add(String.format(column + " recovery across SDKs: %s", run.getKey().substring("cross-".length()),
                    verdict.ok() ? "applied, stored result, no redispatch; checker: no problem" : "FAILED " + verdict.problems()));
        }
        for (Map.Entry<String, Future<Verdict>> run : httpCaseRuns.entrySet()) {
            Verdict verdict = Jobs.result(run.getValue());
            httpCaseRecords.put(run.getKey(), verdict.records());
            ok &= verdict.ok();
            lines.add(String.format(column + " HTTP-only cases: %d/%d passed; checker: %s", run.getKey(), verdict.passed(),
                    verdict.requested(), verdict.problems().isEmpty() ? "no problem" : verdict.problems()));
        }
        return new Collected(records, crossCells, httpCaseRecords, Jobs.result(controlRun), lines, ok);
    }

    /** The controls' line, the shared vectors, the reports, and the summary on stdout; the exit status. */
    private int report(Plan plan, Collected collected) throws Exception {
        ControlsCheck.Witnesses controls = collected.controls();
        boolean ok = collected.ok() && controls.allWitnessed();
        List<String> lines = new ArrayList<>(collected.lines());
        lines.add(String.format(column + " duplicates", "controls") + String.format(" without the guard, as expected: %s%s", controlSummary(controls.witnesses()),
                controls.problems().isEmpty() ? "" : " " + controls.problems()));
        long vectorsStarted = System.nanoTime();
        JsonNode vectors = vectorTable(plan.home(), plan.kinds());
        PhaseTimes.add(PhaseTimes.VECTORS, System.nanoTime() - vectorsStarted);
        long reportsStarted = System.nanoTime();
        JsonNode comparison = ReportFiles.write(plan.folder(), collected.records(), collected.crossCells(), collected.httpCaseRecords(),
                controls.witnesses(), vectors);
        PhaseTimes.add(PhaseTimes.REPORTS, System.nanoTime() - reportsStarted);
        boolean agree = collected.records().size() < 2 || comparison.path("all_agree").asBoolean();
        ok &= agree;
        Streams.stdout().print(ResultTable.render(comparison));
        Streams.stdout().println();
        lines.forEach(Streams.stdout()::println);
        if (collected.records().size() > 1) {
            Streams.stdout().println(String.format(column, "outcomes") + " " + (agree ? "agree on every case" : "DIFFER (see COMPARISON.md)"));
        }
        Streams.stdout().println(String.format(column, "evidence") + " " + plan.folder());
        if (timings) {
            List<String> phases = PhaseTimes.lines(System.nanoTime() - startedNanos);
            Streams.stdout().println(String.format(column, "timings") + " " + phases.get(0));
            phases.subList(1, phases.size()).forEach(line -> Streams.stdout().println(String.format(column, "") + " " + line));
        }
        Streams.stdout().flush();
        PhaseTimes.writeIfAsked();
        return ok ? 0 : 1;
    }

    /** The checker's verdict on a fresh attempt, written as results.jsonl, SUMMARY.json and MATRIX.md. */
    private static Verdict checked(Path attempt) throws Exception {
        long verifying = System.nanoTime();
        Verdict verdict = AttemptCheck.deriveAndWrite(attempt);
        MatrixMarkdown.write(attempt, verdict.requested(), verdict.records());
        PhaseTimes.add(PhaseTimes.VERIFICATION, System.nanoTime() - verifying);
        return verdict;
    }


    private static String controlSummary(JsonNode controls) {
        List<String> parts = new ArrayList<>();
        controls.fields().forEachRemaining(e -> {
            if (e.getValue().isObject()) {
                parts.add(e.getKey() + " " + e.getValue().path("issues").asInt() + " issues"
                        + (e.getValue().path("witnessed").asBoolean() ? "" : " (NOT as expected)"));
            }
        });
        return String.join(", ", parts);
    }

    /** The shared vectors in the languages of the SDKs this run compares (the fixtures' own fingerprints). */
    private static JsonNode vectorTable(Path home, List<ServerKind> kinds) {
        try {
            List<FingerprintLanguage> languages = kinds.stream().map(k -> FingerprintLanguage.fromLabel(k.label())).toList();
            VectorComparison.Report report = VectorComparison.compare(FingerprintVectors.TEST_KEY_HEX,
                    FingerprintImplementations.resolve(languages, home, Map.of(), Duration.ofSeconds(60)));
            return ExactJson.mapper().valueToTree(report);
        } catch (RuntimeException e) {
            return ExactJson.mapper().createObjectNode().put("unavailable", e.getMessage());
        }
    }

}
