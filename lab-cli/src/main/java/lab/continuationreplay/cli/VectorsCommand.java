package lab.continuationreplay.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.matrix.vectors.TypeScriptFingerprintCli;
import lab.continuationreplay.matrix.vectors.VectorComparison;
import lab.continuationreplay.matrix.vectors.VectorTable;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.FingerprintLines;
import lab.continuationreplay.vectors.FingerprintVectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "vectors",
        mixinStandardHelpOptions = true,
        description = {
            "Fingerprints every shared vector in Java and with the TypeScript CLI, prints them side by side and checks"
                    + " the relations the vectors promise (01 == 08; 04, 06, 11 and the unsafe retry != 01).",
            "Exit 0 only when every vector agrees and every relation holds."
        })
final class VectorsCommand implements Callable<Integer> {
    @Option(names = "--key-from-env",
            description = "Use the key in " + FingerprintLines.KEY_VARIABLE
                    + " instead of the public test key (then the pinned vector-00 digest is not checked).")
    boolean keyFromEnvironment;

    @Option(names = "--json", description = "Print the comparison as JSON instead of a table.")
    boolean json;

    @Option(names = "--ts-cli", description = "The TypeScript CLI (default: ts-fixture/dist/fingerprint-cli.js under the lab home).")
    Path typeScriptCli;

    @Override
    public Integer call() throws Exception {
        String keyHex = FingerprintVectors.TEST_KEY_HEX;
        if (keyFromEnvironment) {
            keyHex = System.getenv(FingerprintLines.KEY_VARIABLE);
            try {
                lab.continuationreplay.vectors.FingerprintKey.fromHex(keyHex, FingerprintLines.KEY_VARIABLE);
            } catch (IllegalArgumentException e) {
                Streams.stderr().println(e.getMessage());
                return 2;
            }
        }
        Path script = typeScriptCli != null ? typeScriptCli : LabHome.typeScriptFingerprintCli(LabHome.resolve());
        LabHome.requireFile(script, "build it with `mvn -pl ts-fixture package` (./lab does this for you)");
        VectorComparison.Report report = VectorComparison.compare(
                keyHex, new TypeScriptFingerprintCli(LabHome.node(), script, Duration.ofSeconds(60)));
        if (json) {
            Streams.stdout().println(ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(report));
        } else {
            Streams.stdout().print(VectorTable.render(report));
        }
        Streams.stdout().flush();
        if (!report.typeScriptStderr().isEmpty() && !report.ok()) {
            Streams.stderr().print(report.typeScriptStderr());
        }
        return report.ok() ? 0 : 1;
    }
}
