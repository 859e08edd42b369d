package lab.continuationreplay.matrix.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.List;
import lab.continuationreplay.matrix.cases.CrossSdkCells;
import lab.continuationreplay.matrix.cases.MatrixCase;
import lab.continuationreplay.matrix.cases.MatrixCases;
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
    @Parameters(index = "0", paramLabel = "DIR", description = "A folder written by `lab matrix --out DIR`.")
    Path folder;

    @Override
    public Integer call() throws Exception {
        ObjectNode report = ExactJson.mapper().createObjectNode();
        boolean ok = true;
        int attempts = 0;
        List<String> names = new java.util.ArrayList<>(List.of("java", "typescript"));
        try (var entries = Files.list(folder)) {
            entries.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("cross-")).sorted().forEach(names::add);
        }
        for (String sdk : names) {
            Path attempt = folder.resolve(sdk);
            if (!Files.isDirectory(attempt)) {
                continue;
            }
            attempts++;
            List<MatrixCase> cases = sdk.startsWith("cross-")
                    ? CrossSdkCells.cell(CrossSdkCells.kinds(sdk)[0], CrossSdkCells.kinds(sdk)[1]) : MatrixCases.all();
            Verifier.Verdict verdict = Verifier.verify(attempt, cases);
            ObjectNode side = report.putObject(sdk);
            side.put("requested", verdict.requested());
            side.put("executed", verdict.executed());
            side.put("passed", verdict.passed());
            side.set("problems", ExactJson.mapper().valueToTree(verdict.problems()));
            ok &= verdict.ok();
        }
        if (attempts == 0) {
            throw new IllegalArgumentException(folder + " holds no java/, typescript/ or cross-*/ attempt");
        }
        report.put("ok", ok);
        Streams.stdout().println(ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(report));
        Streams.stdout().flush();
        return ok ? 0 : 1;
    }
}
