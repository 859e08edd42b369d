package lab.continuationreplay.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import lab.continuationreplay.checker.faults.FaultsCheck;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.history.FaultHistory;
import lab.continuationreplay.core.ledger.PostgresRunLedger;
import lab.continuationreplay.faults.FaultLedger;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.faults.ExperimentReport;
import lab.continuationreplay.faults.FaultExperiment;
import lab.continuationreplay.faults.run.FaultExperiments;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.faults.FaultsReport;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.vectors.ExactJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "faults",
        mixinStandardHelpOptions = true,
        description = {
            "The fault lab: hard exits at the ledger's cut points, a kill soak, a faulty stdio intermediary, wire"
                    + " fuzzing, requestState attacks, storage faults and a secrets scan, against each SDK's server as"
                    + " real processes on real SQLite files (--ledger postgres: on PostgreSQL); over HTTP (--transport http) also HTTP request fuzzing,"
                    + " bearer attacks and stalled clients. Every random choice comes from --seed.",
            "Writes OUT/fault-history.jsonl (what was sent, answered, killed and cut), OUT/faults.json, OUT/FAULTS.md and each"
                    + " experiment's evidence in OUT/<experiment>/. The faults checker derives every invariant from the history"
                    + " and the ledgers it names (lab verify OUT does it again). Exit 0 only if every invariant holds: no"
                    + " duplicate, no lost effect, nothing accepted that must be refused, a clear error for every refusal."
        })
final class FaultsCommand implements Callable<Integer> {
    @Option(names = "--quick", description = "Smaller sizes (under 3 minutes); what the test command runs.")
    boolean quick;

    @Option(names = "--out", description = "Output folder (default: target/attempts/faults-<UTC time>); must be new or empty.")
    Path out;

    @Option(names = "--seed", description = "Seed of every random choice (default: ${DEFAULT-VALUE}).")
    long seed = 20260728L;

    @Option(names = "--sdk", split = ",", description = "java, typescript, python, go, rust or all (default: all), over either"
            + " transport.")
    List<String> sdks = List.of("all");

    @Option(names = "--only", split = ",", paramLabel = "EXPERIMENT", description = "Only these experiments, by name.")
    List<String> only;

    @Option(names = "--transport", description = "stdio, http or all (default: ${DEFAULT-VALUE}): how the lab reaches the servers."
            + " Over HTTP: cut points, the kill soak, HTTP request fuzzing, requestState and bearer attacks, stalled clients.")
    String transport = "stdio";

    @Option(names = "--ledger", description = "sqlite or postgres (default: ${DEFAULT-VALUE}, a file per ledger). postgres"
            + " puts every server's ledger on PostgreSQL, as lab matrix --ledger postgres does: the database of"
            + " WIRE_LEDGER_URL (with WIRE_LEDGER_USER and WIRE_LEDGER_PASSWORD_FILE) or, without it, one the lab starts"
            + " for the run; a schema per ledger, its rows left as <name>.rows.json. The storage experiment becomes"
            + " connection refused, statement timeout and database restarted, and the kill soak kills the database too.")
    String ledgerChoice = "sqlite";

    @Override
    public Integer call() throws Exception {
        Path home = LabHome.resolve();
        List<Transport> transports = transport.equals("all") ? List.of(Transport.STDIO, Transport.HTTP)
                : List.of(Transport.fromLabel(transport));
        List<FaultExperiments.Planned> plan = FaultExperiments.plan(only, transports);
        List<ServerKind> kinds = ServerKind.underTest(sdks.contains("all") ? ServerKind.sdkLabels() : sdks);
        if (!ledgerChoice.equals("sqlite") && !ledgerChoice.equals("postgres")) {
            throw new IllegalArgumentException("--ledger is sqlite or postgres, not " + ledgerChoice);
        }
        Path folder = OutputFolder.of(out, home, "faults");
        OutputFolder.requireNewOrEmpty(folder);
        // One set of random tokens for the whole run, outside the output folder, deleted at the end; the secrets
        // scan looks for every one of them in the evidence.
        try (BearerCredentials credentials = transports.contains(Transport.HTTP) ? new BearerCredentials() : null;
                PostgresRunLedger postgres = ledgerChoice.equals("postgres") ? postgres() : null;
                FaultLedger ledger = postgres == null ? FaultLedger.SQLITE : FaultLedger.on(postgres)) {
            // made once the ledger is there: a database refused at the start leaves no folder behind
            Files.createDirectories(folder);
            FaultSession session = new FaultSession(home, folder, quick, seed, kinds, Streams.stderr(), transports, transports.get(0),
                    credentials, ledger);
            List<ExperimentReport> reports = new ArrayList<>();
            Map<String, Map<String, String>> notApplicable = new LinkedHashMap<>();
            for (FaultExperiments.Planned planned : plan) {
                reports.add(runOne(planned, session, notApplicable));
            }
            return judgeAndReport(folder, session, reports, notApplicable);
        }
    }

    /** One experiment over its transport, its history lines under its name; one that cannot finish is a failed one. */
    private static ExperimentReport runOne(FaultExperiments.Planned planned, FaultSession session,
            Map<String, Map<String, String>> notApplicable) {
        FaultExperiment experiment = planned.experiment();
        FaultSession over = session.over(planned.over().get(planned.over().size() - 1))
                .recording(experiment.name(), planned.transportLabel());
        String label = experiment.name() + " (" + planned.transportLabel() + ")";
        session.log(label + ": " + experiment.title());
        long started = System.nanoTime();
        ExperimentReport report;
        try {
            report = experiment.run(over);
        } catch (Exception | AssertionError e) {
            // not a reason to skip the others
            report = new ExperimentReport(experiment.name(), experiment.title(), false,
                    ExactJson.mapper().createObjectNode(), List.of("did not finish: " + e), 0);
        }
        try {
            // each PostgreSQL ledger's rows as evidence beside it, before the secrets scan reads the folder
            session.ledger().sealAll();
        } catch (Exception e) {
            report = new ExperimentReport(report.name(), report.title(), false, report.figures(),
                    Stream.concat(report.findings().stream(), Stream.of("the ledgers' rows could not be sealed: " + e)).toList(),
                    report.observations(), report.transport(), report.millis());
        }
        if (!experiment.notApplicable(over).isEmpty()) {
            notApplicable.put(experiment.name(), experiment.notApplicable(over));
        }
        report = report.over(planned.transportLabel()).withMillis((System.nanoTime() - started) / 1_000_000);
        session.log(label + ": finished in " + report.millis() + " ms" + (report.passed() ? "" : ", FAILED"));
        return report;
    }

    /** Every verdict from the history alone (as lab verify derives it again), then the hashes, the reports and stdout. */
    private static int judgeAndReport(Path folder, FaultSession session, List<ExperimentReport> reports,
            Map<String, Map<String, String>> notApplicable) throws Exception {
        Map<String, List<String>> derived = Map.of();
        if (FaultHistory.in(folder)) {
            derived = FaultsCheck.derive(folder);
            FaultHistory.seal(folder);
        }
        ObjectNode json = FaultsReport.toJson(session, reports, notApplicable, derived);
        FaultsReport.write(folder, json);
        Streams.stdout().print(FaultsReport.table(json));
        Streams.stdout().println();
        Streams.stdout().println("faults     " + (json.path("passed").asBoolean() ? "every invariant holds" : "INVARIANTS VIOLATED (see FAULTS.md)"));
        Streams.stdout().println("evidence   " + folder);
        Streams.stdout().flush();
        return json.path("passed").asBoolean() ? 0 : 1;
    }

    /** The database of WIRE_LEDGER_URL, or one started for the run, exactly as {@code lab matrix --ledger postgres}. */
    private static PostgresRunLedger postgres() throws java.io.IOException {
        long starting = System.nanoTime();
        String given = System.getenv(TrustedEnvironment.LEDGER_URL);
        PostgresRunLedger postgres = given != null && !given.isEmpty() ? PostgresRunLedger.given(System.getenv())
                : PostgresRunLedger.embedded();
        Streams.stderr().printf("ledger: %s, started in %d ms%n", postgres.describe(), (System.nanoTime() - starting) / 1_000_000);
        return postgres;
    }
}
