package lab.continuationreplay.matrix.versions;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import lab.continuationreplay.core.MatrixAsProcess;
import lab.continuationreplay.history.VersionsLayout;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Plays the twelve cases on each release asked for: builds the release in a home of its own ({@link ReleaseHome}),
 * then runs {@code lab matrix --sdk <sdk>} in that home into {@code OUT/<sdk>-<version>/matrix/}. Writes history only
 * (the run file, each release's {@code build.json}, {@code build.log} and the matrix's own folder and exit);
 * every verdict is the checker's.
 */
public final class VersionsRunner {
    private VersionsRunner() {}

    public static void run(Path home, Path out, List<Release> releases, PrintStream progress) throws Exception {
        Files.createDirectories(out);
        ObjectNode run = ExactJson.mapper().createObjectNode();
        run.put("format", VersionsLayout.RUN_FORMAT);
        run.put("started_at", Instant.now().toString());
        ArrayNode asked = run.putArray("releases");
        releases.forEach(r -> asked.addObject().put("sdk", r.sdk().label()).put("release", r.version()));
        write(out.resolve(VersionsLayout.RUN_FILE), run);
        for (Release release : releases) {
            Path folder = Files.createDirectories(out.resolve(release.label()));
            ReleaseHome.Built built = ReleaseHome.prepare(home, release);
            write(folder.resolve(VersionsLayout.BUILD_FILE), built.record());
            Files.writeString(folder.resolve(VersionsLayout.BUILD_LOG), built.log().isEmpty()
                    ? "built earlier from the same lock and sources (" + home.relativize(built.home()) + ")\n" : built.log());
            int typeErrors = built.record().path("type_errors").size();
            progress.printf("%-20s %s%n", release.label(), built.playable()
                    ? "built" + (typeErrors == 0 ? "" : " with " + typeErrors + (typeErrors == 1 ? " type error" : " type errors")) + (built.record().path("reused").asBoolean() ? " (earlier)" : "")
                    : "not built (" + folder.resolve(VersionsLayout.BUILD_LOG) + ")");
            if (!built.playable()) {
                continue;
            }
            int exit = MatrixAsProcess.run(built.home(), List.of(), List.of("--sdk", release.sdk().label(), "--out",
                    folder.resolve(VersionsLayout.MATRIX_FOLDER).toString()), folder.resolve("matrix.stdout.log"), folder.resolve("matrix.stderr.log"));
            ObjectNode ended = ExactJson.mapper().createObjectNode();
            ended.put("exit", exit);
            write(folder.resolve(VersionsLayout.MATRIX_EXIT), ended);
            progress.printf("%-20s played the cases (lab matrix exit %d)%n", release.label(), exit);
        }
    }

    private static void write(Path file, ObjectNode json) throws IOException {
        Files.writeString(file, ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n");
    }
}
