package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lab picture}: a real headless Chromium takes the picture; every refusal writes nothing. */
class LabPictureIT {
    private static final String PAGE = "<!doctype html><html><body style=\"background:#2a6\"><h1>report</h1></body></html>";

    private static Map<String, String> browserEnvironment() {
        Map<String, String> env = new HashMap<>();
        env.put(Chromium.VARIABLE, HeadlessBrowser.chromium().toString());
        return env;
    }

    @Test
    void aPageBecomesAPngOfTheWindowsSizeAndReplaceIsNeededToOverwriteIt(@TempDir Path dir) throws Exception {
        Path page = Files.writeString(dir.resolve("report.html"), PAGE, StandardCharsets.UTF_8);
        Path png = dir.resolve("report.png");
        LabProcess.Result taken = LabProcess.run(List.of("picture", page.toString(), png.toString()), browserEnvironment(), "");
        assertEquals(0, taken.exitCode(), taken.stderr());
        byte[] first = Files.readAllBytes(png);
        assertEquals(new PictureCommand.Size(1400, 900), PictureCommand.size(first));
        assertTrue(taken.stdout().startsWith("picture " + png + " (1400 x 900 px, "), taken.stdout());

        LabProcess.Result refused = LabProcess.run(List.of("picture", page.toString(), png.toString(), "--width", "800",
                "--height", "600"), browserEnvironment(), "");
        assertEquals(2, refused.exitCode(), refused.stdout());
        assertEquals("lab picture: " + png + " exists; give --replace to overwrite it\n", refused.stderr());
        assertArrayEquals(first, Files.readAllBytes(png), "a refusal leaves the picture as it was");

        LabProcess.Result replaced = LabProcess.run(List.of("picture", page.toString(), png.toString(), "--width", "800",
                "--height", "600", "--replace"), browserEnvironment(), "");
        assertEquals(0, replaced.exitCode(), replaced.stderr());
        assertEquals(new PictureCommand.Size(800, 600), PictureCommand.size(Files.readAllBytes(png)));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of("report.html", "report.png"), left.map(p -> p.getFileName().toString()).sorted().toList(),
                    "no temporary file beside the picture");
        }
    }

    @Test
    void badInputIsOneLineExit2AndWritesNothing(@TempDir Path dir) throws Exception {
        Path page = Files.writeString(dir.resolve("report.html"), PAGE, StandardCharsets.UTF_8);
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a page", StandardCharsets.UTF_8);
        Path png = dir.resolve("out.png");
        Map<List<String>, String> refusals = Map.of(
                List.of(dir.resolve("missing.html").toString(), png.toString()), dir.resolve("missing.html") + " is not a file",
                List.of(text.toString(), png.toString()), text + " is not an .html page",
                List.of(page.toString(), dir.resolve("out.jpg").toString()), dir.resolve("out.jpg") + ": the picture's name must end in .png",
                List.of(page.toString(), dir.resolve("no/such/out.png").toString()), dir.resolve("no/such/out.png") + ": its folder does not exist",
                List.of(page.toString(), png.toString(), "--width", "100"), "--width must be 320 to 3840 and --height 240 to 4320, not 100 x 900");
        for (Map.Entry<List<String>, String> refusal : refusals.entrySet()) {
            List<String> args = Stream.concat(Stream.of("picture"), refusal.getKey().stream()).toList();
            LabProcess.Result result = LabProcess.run(args, Map.of(Chromium.VARIABLE, "/bin/true"), "");
            assertEquals(2, result.exitCode(), args + ": " + result.stderr());
            assertEquals("lab picture: " + refusal.getValue() + "\n", result.stderr(), args.toString());
            assertEquals("", result.stdout());
        }
        assertFalse(Files.exists(png));
    }

    @Test
    void withoutABrowserItSaysHowToGetOneAndWritesNothing(@TempDir Path dir) throws Exception {
        Path page = Files.writeString(dir.resolve("report.html"), PAGE, StandardCharsets.UTF_8);
        Path png = dir.resolve("out.png");
        Path emptyPath = Files.createDirectories(dir.resolve("bin"));
        LabProcess.Result none = LabProcess.run(List.of("picture", page.toString(), png.toString()), Map.of("PATH", emptyPath.toString()), "");
        assertEquals(2, none.exitCode(), none.stderr());
        assertEquals("lab picture: no headless Chromium: " + Chromium.HOW + "\n", none.stderr());

        LabProcess.Result notExecutable = LabProcess.run(List.of("picture", page.toString(), png.toString()),
                Map.of(Chromium.VARIABLE, page.toString()), "");
        assertEquals(2, notExecutable.exitCode(), notExecutable.stderr());
        assertEquals("lab picture: " + Chromium.VARIABLE + "=" + page + " is not an executable file\n", notExecutable.stderr());

        // A browser that exits without a picture: exit 1, the reason, nothing written.
        LabProcess.Result failed = LabProcess.run(List.of("picture", page.toString(), png.toString()), Map.of(Chromium.VARIABLE, "/bin/false"), "");
        assertEquals(1, failed.exitCode(), failed.stderr());
        assertTrue(failed.stderr().startsWith("lab picture: /bin/false exited 1 without a picture"), failed.stderr());
        assertFalse(Files.exists(png));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of("bin", "report.html"), left.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }
}
