package lab.continuationreplay.containers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.exec.Exec;

/**
 * The runner images, one per runtime cell, built on this machine by {@code containers/build-images.sh} (never
 * pulled). The script caches every level by a hash of its inputs, so asking again is cheap when nothing changed.
 * Both {@code lab matrix --in-container} and the container tests get their images here.
 */
public final class RunnerImages {
    /** The images by cell, and how long the script took (a cached run takes seconds, a cold one minutes). */
    public record Built(Map<RuntimeCell, String> images, double seconds) {}

    private RunnerImages() {}

    public static Path script(Path home) {
        return LabHome.requireFile(home.resolve("containers/build-images.sh"), "it ships with the repository");
    }

    /** The PostgreSQL server image ({@code build-images.sh --postgres}: Debian's package on the base level). */
    public static String postgres(Path home, Consumer<String> progress) throws IOException, InterruptedException {
        List<String> lines = script(home, List.of("bash", script(home).toString(), "--postgres"), progress);
        return lines.stream().map(line -> line.split("\t")).filter(f -> f.length == 2 && f[0].equals("postgres"))
                .map(f -> f[1]).findFirst()
                .orElseThrow(() -> new IllegalStateException("containers/build-images.sh --postgres named no image"));
    }

    /** Runs the build script for these cells; its progress lines go to {@code progress}. */
    public static Built build(Path home, List<RuntimeCell> cells, Consumer<String> progress) throws IOException, InterruptedException {
        List<String> command = List.of("bash", script(home).toString(), "--runtime",
                String.join(",", cells.stream().map(RuntimeCell::id).toList()));
        long started = System.nanoTime();
        List<String> lines = script(home, command, progress);
        Map<RuntimeCell, String> images = new LinkedHashMap<>();
        for (String line : lines) {
            String[] fields = line.split("\t");
            if (fields.length == 2) {
                images.put(RuntimeCell.parse(fields[0]), fields[1]);
            }
        }
        for (RuntimeCell cell : cells) {
            if (!images.containsKey(cell)) {
                throw new IllegalStateException("containers/build-images.sh named no image for " + cell);
            }
        }
        return new Built(images, (System.nanoTime() - started) / 1e9);
    }

    /** Runs the script; returns its stdout lines, or throws when it fails (its last lines went to {@code progress}). */
    private static List<String> script(Path home, List<String> command, Consumer<String> progress)
            throws IOException, InterruptedException {
        Process process = Exec.command(command).withDirectory(home).withStdout(Exec.Io.PIPE).withStderr(Exec.Io.PIPE).start();
        process.getOutputStream().close();
        CompletableFuture<Void> errors = CompletableFuture.runAsync(() -> forEachLine(process.getErrorStream(), progress));
        List<String> lines = new ArrayList<>();
        forEachLine(process.getInputStream(), lines::add);
        if (!process.waitFor(45, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("building the images took longer than 45 minutes");
        }
        errors.join();
        if (process.exitValue() != 0) {
            throw new IllegalStateException("building the images failed (containers/build-images.sh exited "
                    + process.exitValue() + "; its last lines are above)");
        }
        return lines;
    }

    private static void forEachLine(java.io.InputStream in, Consumer<String> sink) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                sink.accept(line);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
