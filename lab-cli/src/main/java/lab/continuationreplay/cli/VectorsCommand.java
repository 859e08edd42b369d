package lab.continuationreplay.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.matrix.vectors.FingerprintImplementation;
import lab.continuationreplay.matrix.vectors.FingerprintImplementations;
import lab.continuationreplay.matrix.vectors.FingerprintLanguage;
import lab.continuationreplay.matrix.vectors.VectorComparison;
import lab.continuationreplay.matrix.vectors.VectorTable;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.FingerprintKey;
import lab.continuationreplay.vectors.FingerprintLines;
import lab.continuationreplay.vectors.FingerprintVectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "vectors",
        mixinStandardHelpOptions = true,
        description = {
            "Fingerprints every shared vector in Java (in the lab's JVM) and with the TypeScript, Python and Go CLIs,"
                    + " prints them side by side, and checks that every language gives the digest the vector file expects"
                    + " and the relations it promises (01 == 08; 02 == the unsafe retry; 04, 06, 09, 11 and the unsafe"
                    + " retry != 01).",
            "Exit 0 only when every vector agrees and every relation holds; 1 when a language disagrees (named in the"
                    + " table) or its build is missing; 2 for a bad key."
        })
final class VectorsCommand implements Callable<Integer> {
    @Option(names = "--key-from-env",
            description = "Use the key in " + FingerprintLines.KEY_VARIABLE
                    + " instead of the public test key (then the expected and pinned digests are not checked, only"
                    + " agreement and the relations).")
    boolean keyFromEnvironment;

    @Option(names = "--json", description = "Print the comparison as JSON instead of a table.")
    boolean json;

    @Option(names = {"--lang", "--sdk"}, split = ",",
            description = "Comma-separated languages to compare (java, typescript, python, go, rust) or all (default: all);"
                    + " the labels of lab matrix --sdk.")
    List<String> languages = List.of("all");

    @Option(names = "--ts-cli", description = "The TypeScript CLI (default: ts-fixture/dist/fingerprint-cli.js under the lab home).")
    Path typeScriptCli;

    @Option(names = "--py-cli", description = "The Python CLI script, run by py-fixture/.venv/bin/python (default: py-fixture/src/fingerprint-cli.py).")
    Path pythonCli;

    @Option(names = "--go-cli", description = "The Go CLI binary (default: go-fixture/target/bin/fingerprint-cli).")
    Path goCli;

    @Option(names = "--rust-cli", description = "The Rust CLI binary (default: rust-fixture/target/release/fingerprint-cli).")
    Path rustCli;

    @Override
    public Integer call() throws Exception {
        // Everything that can be refused is refused before any implementation runs.
        List<FingerprintLanguage> chosen = FingerprintLanguage.parse(languages);
        String keyHex = FingerprintVectors.TEST_KEY_HEX;
        if (keyFromEnvironment) {
            keyHex = System.getenv(FingerprintLines.KEY_VARIABLE);
            try {
                FingerprintKey.fromHex(keyHex, FingerprintLines.KEY_VARIABLE);
            } catch (IllegalArgumentException e) {
                Streams.stderr().println(e.getMessage());
                return 2;
            }
        }
        Map<FingerprintLanguage, Path> paths = new LinkedHashMap<>();
        if (typeScriptCli != null) {
            paths.put(FingerprintLanguage.TYPESCRIPT, typeScriptCli);
        }
        if (pythonCli != null) {
            paths.put(FingerprintLanguage.PYTHON, pythonCli);
        }
        if (goCli != null) {
            paths.put(FingerprintLanguage.GO, goCli);
        }
        if (rustCli != null) {
            paths.put(FingerprintLanguage.RUST, rustCli);
        }
        List<FingerprintImplementation> implementations =
                FingerprintImplementations.resolve(chosen, LabHome.resolve(), paths, Duration.ofSeconds(60));
        VectorComparison.Report report = VectorComparison.compare(keyHex, implementations);
        if (json) {
            Streams.stdout().println(ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(report));
        } else {
            Streams.stdout().print(VectorTable.render(report));
        }
        Streams.stdout().flush();
        if (!report.ok()) {
            report.stderr().forEach((language, text) ->
                    text.lines().forEach(line -> Streams.stderr().println(language + ": " + line)));
        }
        return report.ok() ? 0 : 1;
    }
}
