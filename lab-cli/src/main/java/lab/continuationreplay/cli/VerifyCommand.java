package lab.continuationreplay.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import lab.continuationreplay.containers.RuntimeCell;
import lab.continuationreplay.matrix.verify.MatrixFolder;
import lab.continuationreplay.matrix.verify.Verifier;
import lab.continuationreplay.vectors.ExactJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = {
            "Re-derives a matrix run from its artifacts alone (hashes, databases read-only, transcripts, exit statuses)"
                    + " and checks every record, outcome and summary. Prints a JSON report; exit 0 only if all agree."
        })
final class VerifyCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "A folder written by `lab matrix --out DIR` (with or without"
            + " --in-container).")
    Path folder;

    @Override
    public Integer call() throws Exception {
        ObjectNode report = ExactJson.mapper().createObjectNode();
        boolean ok = true;
        Map<String, Verifier.Verdict> verdicts = new LinkedHashMap<>(MatrixFolder.verify(folder));
        if (verdicts.isEmpty()) {
            // A `lab matrix --in-container` folder: one matrix folder per runtime cell.
            for (RuntimeCell cell : RuntimeCell.ALL) {
                if (Files.isDirectory(folder.resolve(cell.id()))) {
                    MatrixFolder.verify(folder.resolve(cell.id())).forEach((name, verdict) -> verdicts.put(cell.id() + "/" + name, verdict));
                }
            }
        }
        for (Map.Entry<String, Verifier.Verdict> entry : verdicts.entrySet()) {
            Verifier.Verdict verdict = entry.getValue();
            ObjectNode side = report.putObject(entry.getKey());
            side.put("requested", verdict.requested());
            side.put("executed", verdict.executed());
            side.put("passed", verdict.passed());
            side.set("problems", ExactJson.mapper().valueToTree(verdict.problems()));
            ok &= verdict.ok();
        }
        if (verdicts.isEmpty()) {
            throw new IllegalArgumentException(folder + " holds no java/, typescript/ or cross-*/ attempt (nor runtime cells with one)");
        }
        report.put("ok", ok);
        Streams.stdout().println(ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(report));
        Streams.stdout().flush();
        return ok ? 0 : 1;
    }
}
