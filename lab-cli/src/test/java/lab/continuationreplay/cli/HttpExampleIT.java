package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.servers.JavaCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP exchange of docs/http.md (the README links to it) is run as written, in bash with the real curl, against
 * the real Java server: the lines it prints must be the lines the page says it prints. Only {@code ./lab} is a
 * stand-in that runs the built jar, because the real launcher would rebuild the project from inside its own test run.
 */
class HttpExampleIT {
    /** The page that holds the example, between its two markers. */
    static final String PAGE = "docs/http.md";

    @TempDir
    Path dir;

    @Test
    void theCurlExchangePrintsWhatThePageSays() throws Exception {
        String page = Files.readString(LabProcess.home().resolve(PAGE));
        String block = between(page, "<!-- http-example:begin -->\n```bash\n", "```\n<!-- http-example:end -->");
        String printed = between(page.substring(page.indexOf("<!-- http-example:end -->")), "```text\n", "```\n");
        Path lab = dir.resolve("lab");
        Files.writeString(lab, "#!/usr/bin/env bash\nexec " + String.join(" ", JavaCommand.of(
                List.of("-Dlab.home=" + LabProcess.home()), "-jar", LabHome.labJar(LabProcess.home()).toString())) + " \"$@\"\n");
        Files.setPosixFilePermissions(lab, PosixFilePermissions.fromString("rwx------"));
        // As pasted into an interactive shell: no errexit (the stopped server's job ends with SIGTERM's status).
        Files.writeString(dir.resolve("example.sh"), block);
        Exec.Result result = Exec.command("bash", dir.resolve("example.sh").toString()).withDirectory(dir)
                .run(Duration.ofSeconds(90));
        assertEquals(printed, result.output());
        assertTrue(!result.timedOut(), "the example's server stopped when the example killed it");
    }

    private static String between(String text, String start, String end) {
        int from = text.indexOf(start);
        assertTrue(from >= 0, PAGE + " has no " + start.trim());
        int to = text.indexOf(end, from + start.length());
        assertTrue(to >= 0, PAGE + " has no " + end.trim());
        return text.substring(from + start.length(), to);
    }
}
