package lab.continuationreplay.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import lab.continuationreplay.core.exec.Exec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "picture",
        mixinStandardHelpOptions = true,
        description = {
            "Takes a PNG picture of a report page (report.html, bench.html) in headless Chromium, at a laptop's window"
                    + " size unless told otherwise.",
            "The README's picture: ./lab picture target/attempts/matrix-<time>/report.html docs/img/matrix-report.png --replace",
            "Exit 0 with the picture written, 2 on bad input or no browser (nothing written), 1 when the browser fails"
                    + " (nothing written)."
        })
final class PictureCommand implements Callable<Integer> {
    static final int EXIT_BAD_INPUT = 2;
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    private static final int TIMEOUT_SECONDS = 90;

    @Parameters(index = "0", paramLabel = "PAGE", description = "The HTML page (a file).")
    Path page;

    @Parameters(index = "1", paramLabel = "PNG", description = "Where the picture goes; its folder must exist.")
    Path png;

    @Option(names = "--width", description = "Window width in CSS pixels, 320 to 3840 (default: ${DEFAULT-VALUE}).")
    int width = 1400;

    @Option(names = "--height", description = "Window height in CSS pixels, 240 to 4320 (default: ${DEFAULT-VALUE}).")
    int height = 900;

    @Option(names = "--replace", description = "Overwrite PNG if it exists (without it an existing file is refused).")
    boolean replace;

    /** A picture's size as its PNG header gives it. */
    record Size(int width, int height) {}

    @Override
    public Integer call() throws IOException, InterruptedException {
        Path browser;
        try {
            check();
            browser = Chromium.find(System::getenv).orElseThrow(() -> new IllegalArgumentException("no headless Chromium: " + Chromium.HOW));
        } catch (IllegalArgumentException e) {
            Streams.stderr().println("lab picture: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        Path scratch = Files.createTempDirectory("lab-picture-");
        try {
            Path shot = scratch.resolve("picture.png");
            String failure = take(browser, scratch, shot);
            if (failure != null) {
                Streams.stderr().println("lab picture: " + failure);
                return 1;
            }
            // take() checked that the PNG is width x height. Copied beside the target and renamed over it, so a reader never meets half a picture.
            Path beside = Files.createTempFile(png.toAbsolutePath().getParent(), ".picture-", ".png");
            try {
                Files.copy(shot, beside, StandardCopyOption.REPLACE_EXISTING);
                Files.move(beside, png, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(beside);
            }
            Streams.stdout().printf("picture %s (%d x %d px, %d bytes) of %s%n", png, width, height, Files.size(png), page);
            Streams.stdout().flush();
            return 0;
        } finally {
            deleteTree(scratch);
        }
    }

    /** Every refusal before the browser starts, so a refused call writes nothing. */
    private void check() {
        if (!Files.isRegularFile(page)) {
            throw new IllegalArgumentException(page + " is not a file");
        }
        String name = page.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        if (!name.endsWith(".html") && !name.endsWith(".htm")) {
            throw new IllegalArgumentException(page + " is not an .html page");
        }
        if (!png.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".png")) {
            throw new IllegalArgumentException(png + ": the picture's name must end in .png");
        }
        Path folder = png.toAbsolutePath().getParent();
        if (folder == null || !Files.isDirectory(folder)) {
            throw new IllegalArgumentException(png + ": its folder does not exist");
        }
        if (Files.isDirectory(png)) {
            throw new IllegalArgumentException(png + " is a folder");
        }
        if (Files.exists(png) && !replace) {
            throw new IllegalArgumentException(png + " exists; give --replace to overwrite it");
        }
        if (width < 320 || width > 3840 || height < 240 || height > 4320) {
            throw new IllegalArgumentException("--width must be 320 to 3840 and --height 240 to 4320, not " + width + " x " + height);
        }
    }

    /** Runs the browser; null when it left a PNG of the asked size at {@code shot}, else what went wrong. */
    private String take(Path browser, Path scratch, Path shot) throws IOException, InterruptedException {
        List<String> command = List.of(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-extensions", "--hide-scrollbars", "--user-data-dir=" + scratch.resolve("profile"),
                "--window-size=" + width + "," + height, "--screenshot=" + shot, page.toAbsolutePath().toUri().toString());
        // Its stdout and stderr together, so that a failure can quote them; a run over the limit is killed, tree and all.
        Exec.Result run = Exec.command(command).withStderr(Exec.Io.INTO_STDOUT).run(Duration.ofSeconds(TIMEOUT_SECONDS));
        if (run.timedOut()) {
            return browser + " did not finish in " + TIMEOUT_SECONDS + " s";
        }
        if (run.exitStatus() != 0 || !Files.isRegularFile(shot)) {
            return browser + " exited " + run.exitStatus() + " without a picture; its output ends: " + tail(run.output());
        }
        Size size;
        try {
            size = size(Files.readAllBytes(shot));
        } catch (IllegalArgumentException e) {
            return browser + " wrote something that is not a PNG: " + e.getMessage();
        }
        if (size.width() != width || size.height() != height) {
            return browser + " wrote a " + size.width() + " x " + size.height() + " picture, not " + width + " x " + height;
        }
        return null;
    }

    /** The width and height in a PNG's header (the IHDR chunk, always first). */
    static Size size(byte[] bytes) {
        if (bytes.length < 24 || !Arrays.equals(Arrays.copyOf(bytes, 8), PNG_SIGNATURE)
                || !"IHDR".equals(new String(bytes, 12, 4, java.nio.charset.StandardCharsets.US_ASCII))) {
            throw new IllegalArgumentException("no PNG signature and header");
        }
        ByteBuffer header = ByteBuffer.wrap(bytes, 16, 8);
        return new Size(header.getInt(), header.getInt());
    }

    private static String tail(String text) {
        String trimmed = text.strip();
        return trimmed.length() <= 400 ? trimmed : "…" + trimmed.substring(trimmed.length() - 400);
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
