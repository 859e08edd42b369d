package lab.continuationreplay.containers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import lab.continuationreplay.core.exec.Exec;

/**
 * The {@code docker} command line, for {@code lab matrix --in-container} (the tests use Testcontainers instead).
 * Containers run with network {@code none}, {@code --pull never}, as the owner of the output folder, and are removed
 * when they exit.
 */
public final class DockerCli {
    /** What the container printed, kept next to its evidence (not named *.stderr.log: those are the processes' logs). */
    public static final String STDOUT = "lab-matrix.out.txt";
    public static final String STDERR = "lab-matrix.err.txt";

    private DockerCli() {}

    /** Null when {@code docker info} answers, else why not. */
    public static String engineProblem() {
        try {
            Exec.Result info = Exec.run(List.of("docker", "info", "--format", "{{.ServerVersion}}"), Duration.ofSeconds(30));
            if (info.timedOut()) {
                return "docker info did not answer in 30 s";
            }
            String text = info.output().strip();
            return info.exitStatus() == 0 ? null : "docker info failed: " + text.lines().reduce((a, b) -> b).orElse("exit " + info.exitStatus());
        } catch (IOException e) {
            return "no docker command (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /**
     * Runs {@code lab <args>} in {@code image} with {@code folder} mounted at {@code /out}; returns the exit status
     * (124 after {@code timeout}, when the container is killed).
     */
    public static int run(String image, String name, Path folder, List<String> args, Consumer<String> progress, Duration timeout)
            throws IOException, InterruptedException {
        Path out = folder.toAbsolutePath();
        Files.createDirectories(out);
        List<String> command = new ArrayList<>(List.of("docker", "run", "--rm", "--name", name, "--network", "none",
                "--pull", "never", "--user", owner(out), "--volume", out + ":/out", image));
        command.addAll(args);
        Process docker = Exec.command(command).withStdout(Exec.Io.file(out.resolve(STDOUT))).withStderr(Exec.Io.PIPE).start();
        docker.getOutputStream().close();
        CompletableFuture<Void> errors = CompletableFuture.runAsync(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(docker.getErrorStream(), StandardCharsets.UTF_8));
                    PrintWriter log = new PrintWriter(Files.newBufferedWriter(out.resolve(STDERR)))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    log.println(line);
                    progress.accept(line);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        if (!docker.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            progress.accept("no result after " + timeout.toMinutes() + " min; killing container " + name);
            Exec.run(List.of("docker", "kill", name), Duration.ofSeconds(30));
            docker.destroyForcibly();
            docker.waitFor(30, TimeUnit.SECONDS);
            awaitGone(name, Duration.ofSeconds(30));
            return 124;
        }
        errors.join();
        return docker.exitValue();
    }

    /**
     * Waits until no container is named {@code name}: the engine removes a killed {@code --rm} container after it has
     * stopped, not when {@code docker kill} returns, and a caller that starts the next cell must not meet it.
     */
    private static void awaitGone(String name, Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            Exec.Result listed = Exec.run(List.of("docker", "ps", "-aq", "--filter", "name=^" + name + "$"), Duration.ofSeconds(30));
            if (listed.succeeded() && listed.output().isBlank()) {
                return;
            }
            Thread.sleep(200);
        }
        Exec.run(List.of("docker", "rm", "--force", name), Duration.ofSeconds(30));
    }

    /** {@code uid:gid} of a folder: the container writes its evidence as the folder's owner, not as root. */
    public static String owner(Path folder) throws IOException {
        return Files.getAttribute(folder, "unix:uid") + ":" + Files.getAttribute(folder, "unix:gid");
    }
}
