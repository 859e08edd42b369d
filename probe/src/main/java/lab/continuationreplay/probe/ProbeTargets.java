package lab.continuationreplay.probe;

import java.nio.file.Path;
import java.util.Map;
import lab.continuationreplay.history.Layout;

/**
 * The probe's ways to its target: the connection, how p7 and s4 restart the server, a connection as another principal
 * (p6, s6b), and over stdio a second process of the same command (s9, and the restart into an earlier era).
 */
final class ProbeTargets {
    private ProbeTargets() {}

    /**
     * @param other opens a connection as another principal, or answers null when the user gave none
     * @param again starts the stdio server again under a new name (null over HTTP)
     */
    record Ways(ProbeConnection connection, ProbeRunner.Restart restart, java.util.function.Supplier<ProbeConnection> other,
            java.util.function.Function<String, ProbeConnection> again) {}

    /** @param environment variables the stdio server gets beyond this process's own (never written anywhere) */
    static Ways open(ProbeOptions options, Map<String, String> environment, ProbeHistory history, ProbeClock clock) {
        Path transcript = history.run().resolve("server" + Layout.TRANSCRIPT_SUFFIX);
        ProbeConnection connection;
        ProbeRunner.Restart restart;
        java.util.function.Supplier<ProbeConnection> other;
        java.util.function.Function<String, ProbeConnection> again = null;
        if (options.target() instanceof ProbeOptions.Target.Command command) {
            Map<String, String> otherEnvironment = new java.util.LinkedHashMap<>(environment);
            otherEnvironment.putAll(command.otherEnvironment());
            other = command.otherEnvironment().isEmpty() ? () -> null : () -> StdioConnection.start(command.command(),
                    otherEnvironment, history.run().resolve("other" + Layout.TRANSCRIPT_SUFFIX),
                    history.run().resolve("other" + Layout.STDERR_SUFFIX), options.requestTimeout(), clock);
            connection = StdioConnection.start(command.command(), environment, transcript,
                    history.run().resolve("server" + Layout.STDERR_SUFFIX), options.requestTimeout(), clock);
            again = name -> StdioConnection.start(command.command(), environment, history.run().resolve(name + Layout.TRANSCRIPT_SUFFIX),
                    history.run().resolve(name + Layout.STDERR_SUFFIX), options.requestTimeout(), clock);
            int[] starts = {1};
            restart = current -> {
                ((StdioConnection) current).kill();
                current.close();
                String name = "server-" + (++starts[0]);
                return StdioConnection.start(command.command(), environment, history.run().resolve(name + Layout.TRANSCRIPT_SUFFIX),
                        history.run().resolve(name + Layout.STDERR_SUFFIX), options.requestTimeout(), clock);
            };
        } else {
            ProbeOptions.Target.Url url = (ProbeOptions.Target.Url) options.target();
            connection = new HttpConnection(url, url.headers(), transcript, options.requestTimeout(), clock);
            other = url.otherHeaders().isEmpty() ? () -> null : () -> new HttpConnection(url, url.asOther(),
                    history.run().resolve("other" + Layout.TRANSCRIPT_SUFFIX), options.requestTimeout(), clock);
            restart = url.restartCommand() == null ? current -> null : current -> restartByCommand(url.restartCommand(), current);
        }
        return new Ways(connection, restart, other, again);
    }

    /** Runs the user's restart command; the probe then waits until the server answers again. */
    static ProbeConnection restartByCommand(String command, ProbeConnection current) {
        try {
            lab.continuationreplay.core.exec.Exec.Result result = lab.continuationreplay.core.exec.Exec.command("sh", "-c", command)
                    .withStderr(lab.continuationreplay.core.exec.Exec.Io.INTO_STDOUT).run(java.time.Duration.ofSeconds(120));
            if (result.timedOut() || result.exitStatus() != 0) {
                throw new ProbeInputException("--restart-cmd " + (result.timedOut() ? "did not end within 120 s" : "exited "
                        + result.exitStatus()) + ": " + result.output().strip());
            }
        } catch (java.io.IOException e) {
            throw new ProbeInputException("--restart-cmd could not run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProbeInputException("interrupted while restarting the server");
        }
        return current;
    }
}
