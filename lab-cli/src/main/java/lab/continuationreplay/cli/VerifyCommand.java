package lab.continuationreplay.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import lab.continuationreplay.checker.ControlsCheck;
import lab.continuationreplay.checker.FolderCheck;
import lab.continuationreplay.checker.faults.FaultsCheck;
import lab.continuationreplay.checker.versions.VersionsCheck;
import lab.continuationreplay.history.FaultHistory;
import lab.continuationreplay.checker.NetworkCheck;
import lab.continuationreplay.checker.Verdict;
import lab.continuationreplay.containers.RuntimeCell;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.vectors.ExactJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = {
            "Derives a matrix run's (or a clients, replicas, faults, versions, probe or proxy run's) verdicts again from its history alone (requested cases, hashes, databases read-only,"
                    + " transcripts, exit statuses) and checks that the results, summaries and control witnesses the folder"
                    + " holds say the same. Prints a JSON report; exit 0 only if all agree and every case passes."
        })
final class VerifyCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "A folder written by `lab matrix --out DIR` (with or without"
            + " --in-container), lab clients, lab replicas, lab faults, lab versions, lab probe or lab proxy.")
    Path folder;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException(folder + " is not a folder");
        }
        ObjectNode report = ExactJson.mapper().createObjectNode();
        if (lab.continuationreplay.probe.cli.ProbeVerify.handles(folder)) {
            return probe();
        }
        if (FaultHistory.in(folder)) {
            return faults();
        }
        if (VersionsCheck.handles(folder)) {
            return versions();
        }
        boolean ok = true;
        Map<String, Verdict> verdicts = new LinkedHashMap<>(matrixFolder(folder, ""));
        if (verdicts.isEmpty()) {
            // A `lab matrix --in-container` folder: one matrix folder per runtime cell.
            for (RuntimeCell cell : RuntimeCell.ALL) {
                if (Files.isDirectory(folder.resolve(cell.id()))) {
                    verdicts.putAll(matrixFolder(folder.resolve(cell.id()), cell.id() + "/"));
                }
            }
        }
        if (Files.exists(folder.resolve(NetworkCheck.FILE))) {
            // a lab replicas folder: its network's isolation is judged again too
            List<String> problems = NetworkCheck.problems(folder);
            verdicts.put("network", new Verdict("network", 1, 1, problems.isEmpty() ? 1 : 0, problems, List.of()));
        }
        for (Map.Entry<String, Verdict> entry : verdicts.entrySet()) {
            Verdict verdict = entry.getValue();
            ObjectNode side = report.putObject(entry.getKey());
            side.put("requested", verdict.requested());
            side.put("executed", verdict.executed());
            side.put("passed", verdict.passed());
            if (verdict.expectedFailures() > 0) {
                side.put("expected_failures", verdict.expectedFailures());
            }
            side.set("problems", ExactJson.mapper().valueToTree(verdict.problems()));
            ok &= verdict.ok();
        }
        if (verdicts.isEmpty()) {
            throw new IllegalArgumentException(folder + " holds no attempt: no SDK column (<sdk>/ or <sdk>-http/, for "
                    + lab.continuationreplay.history.Sdk.listed() + "), http-cases-*/, cross-*/, client-*/ or replicas-*/ folder (nor runtime cells with one)");
        }
        report.put("ok", ok);
        Streams.stdout().println(ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(report));
        Streams.stdout().flush();
        return ok ? 0 : 1;
    }

    /** A lab faults run: its hashes, every verdict derived again from its history, and whether faults.json says the same. */
    private Integer faults() throws Exception {
        FaultsCheck.Verification verified = FaultsCheck.verify(folder);
        ObjectNode report = ExactJson.mapper().createObjectNode();
        report.set("hashes", ExactJson.mapper().valueToTree(verified.hashProblems()));
        ObjectNode units = report.putObject("experiments");
        verified.derived().forEach((unit, problems) -> units.set(unit, ExactJson.mapper().valueToTree(problems)));
        report.set("disagreements", ExactJson.mapper().valueToTree(verified.disagreements()));
        report.put("all_passed", verified.allPassed());
        report.put("ok", verified.ok());
        Streams.stdout().println(ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(report));
        Streams.stdout().flush();
        return verified.ok() ? 0 : 1;
    }

    /** A lab versions run: each release's matrix judged again, and whether versions.json says the same. */
    private Integer versions() throws Exception {
        List<String> problems = VersionsCheck.verify(folder);
        ObjectNode report = ExactJson.mapper().createObjectNode();
        report.set("problems", ExactJson.mapper().valueToTree(problems));
        report.put("ok", problems.isEmpty());
        Streams.stdout().println(ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(report));
        Streams.stdout().flush();
        return problems.isEmpty() ? 0 : 1;
    }

    /** A lab probe or lab proxy run: derived again, and whether probe.json or proxy.json says the same. */
    private Integer probe() throws Exception {
        lab.continuationreplay.probe.cli.ProbeVerify.Report verified = lab.continuationreplay.probe.cli.ProbeVerify.of(folder);
        Streams.stdout().println(ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(verified.json()));
        Streams.stdout().flush();
        return verified.ok() ? 0 : 1;
    }

    /** Every attempt of one matrix folder, then its controls when it has them. */
    private static Map<String, Verdict> matrixFolder(Path folder, String prefix) throws Exception {
        Map<String, Verdict> verdicts = new LinkedHashMap<>();
        FolderCheck.verify(folder).forEach((name, verdict) -> verdicts.put(prefix + name, verdict));
        if (!verdicts.isEmpty() && Files.isDirectory(folder.resolve(Layout.CONTROLS))) {
            verdicts.put(prefix + Layout.CONTROLS, ControlsCheck.asVerdict(ControlsCheck.verify(folder)));
        }
        return verdicts;
    }
}
