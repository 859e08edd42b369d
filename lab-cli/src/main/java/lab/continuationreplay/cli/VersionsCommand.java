package lab.continuationreplay.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lab.continuationreplay.checker.versions.VersionsCheck;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.history.Sdk;
import lab.continuationreplay.matrix.versions.Release;
import lab.continuationreplay.matrix.versions.VersionsRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "versions",
        mixinStandardHelpOptions = true,
        description = {
            "The twelve cases on each served release of an SDK: each release's fixture is built in a lab home of its own"
                    + " (target/versions/<sdk>-<release>/) from the lock committed in versions/<sdk>/<release>/, then"
                    + " `lab matrix --sdk <sdk>` plays it there. Java (mcp-core 2.0.0 to 2.2.0), TypeScript"
                    + " (@modelcontextprotocol/server 2.0.0 to 2.4.0), Python (mcp 2.0.0 to 2.3.0), Go (go-sdk 1.2.0 to"
                    + " 1.8.0) and Rust (rmcp, the newest patch of each minor from 3.0 to 3.11).",
            "Writes OUT/versions-run.json and per release OUT/<sdk>-<release>/ (build.json, build.log, the matrix's folder),"
                    + " then the checker's table: OUT/versions.json, OUT/VERSIONS.md, and the same table on stdout. Exit 0"
                    + " when every release has its row (played to its end, or not built with its reason) and every history"
                    + " agrees with its results; a case that fails on an older release is the table's content."
        })
final class VersionsCommand implements Callable<Integer> {
    @Option(names = "--out", description = "Output folder (default: target/attempts/versions-<UTC time>); must be new or empty.")
    Path out;

    @Option(names = "--sdk", split = ",", paramLabel = "SDK",
            description = "java, typescript, python, go, rust, or a list of them (default: all five): whose releases play,"
                    + " each SDK's oldest first.")
    List<String> sdks;

    @Option(names = "--releases", split = ",", paramLabel = "RELEASE",
            description = "Only these releases, e.g. 2.0.0,2.3.1 (default: every release with a lock in versions/<sdk>/); with"
                    + " one --sdk only.")
    List<String> releases;

    @Override
    public Integer call() throws Exception {
        Path home = LabHome.resolve();
        List<Sdk> chosen = new ArrayList<>();
        for (String label : sdks == null ? Sdk.labels() : sdks) {
            Sdk sdk = Sdk.fromLabel(label);
            if (chosen.contains(sdk)) {
                throw new IllegalArgumentException("--sdk names " + label + " twice");
            }
            chosen.add(sdk);
        }
        if (releases != null && chosen.size() != 1) {
            throw new IllegalArgumentException("--releases needs one --sdk (release numbers are each SDK's own)");
        }
        List<Release> asked = new ArrayList<>();
        for (Sdk sdk : chosen) {
            asked.addAll(asked(home, sdk));
        }
        asked.sort(null);
        Path folder = OutputFolder.of(out, home, "versions");
        OutputFolder.requireNewOrEmpty(folder);
        VersionsRunner.run(home, folder, asked, Streams.stderr());
        VersionsCheck.Table table = VersionsCheck.deriveAndWrite(folder);
        Streams.stdout().print(VersionsCheck.text(table, false));
        table.rows().forEach(r -> r.problems().forEach(p -> Streams.stdout().println("problem  " + p)));
        Streams.stdout().println("evidence " + folder);
        Streams.stdout().flush();
        return table.complete() ? 0 : 1;
    }

    /** The releases of {@code sdk} this run plays: those named by {@code --releases}, else every one with a lock. */
    private List<Release> asked(Path home, Sdk sdk) throws java.io.IOException {
        List<Release> served = Release.served(home, sdk);
        if (releases == null) {
            if (served.isEmpty()) {
                throw new IllegalArgumentException("no release of " + sdk.label() + " has a lock in versions/" + sdk.label() + "/");
            }
            return served;
        }
        List<Release> asked = new ArrayList<>();
        for (String version : releases) {
            Release release = new Release(sdk, version);
            if (!served.contains(release)) {
                throw new IllegalArgumentException("--releases " + version + ": no lock in versions/" + sdk.label() + "/ (served: "
                        + String.join(", ", served.stream().map(Release::version).toList()) + ")");
            }
            if (asked.contains(release)) {
                throw new IllegalArgumentException("--releases names " + version + " twice");
            }
            asked.add(release);
        }
        return asked;
    }
}
