package lab.continuationreplay.replicas;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.core.exec.Exec;

/** The {@code docker} command line for the replica topology: each call either does what it says or says why not. */
final class Docker {
    private static final Duration LIMIT = Duration.ofSeconds(120);

    private Docker() {}

    /** Runs {@code docker args...}; returns its output, or throws with the command and what docker said. */
    static String run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("docker");
        command.addAll(List.of(args));
        Exec.Result result = Exec.run(command, LIMIT);
        if (result.timedOut()) {
            throw new IllegalStateException("'" + String.join(" ", command) + "' did not end in " + LIMIT.toSeconds() + " s");
        }
        if (result.exitStatus() != 0) {
            throw new IllegalStateException("'" + String.join(" ", command) + "' failed (exit " + result.exitStatus() + "): "
                    + result.output().strip());
        }
        return result.output();
    }

    /** As {@link #run}, for clean-up: a failure is returned as a line to report, never thrown. */
    static String quietly(String... args) {
        try {
            run(args);
            return null;
        } catch (IOException | RuntimeException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
