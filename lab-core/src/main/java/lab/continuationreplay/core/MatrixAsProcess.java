package lab.continuationreplay.core;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.servers.JavaCommand;

/** {@code lab matrix} in a child JVM from the built jar, as a user runs it; its stdout and stderr go to files. */
public final class MatrixAsProcess {
    public static final Duration LIMIT = Duration.ofMinutes(15);
    /**
     * The lab JVM's own options for {@code ./lab matrix} (the {@code lab} script gives the same): a run of seconds
     * that starts dozens of servers, so C1 and the serial collector, not C2 competing with the servers for the cores.
     */
    public static final List<String> LAB_JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private MatrixAsProcess() {}

    /** The exit status, or -1 when it did not finish within {@link #LIMIT} (it is then killed with its children). */
    public static int run(Path home, List<String> jvmOptions, List<String> matrixArguments, Path stdoutLog, Path stderrLog)
            throws Exception {
        return run(home, jvmOptions, matrixArguments, stdoutLog, stderrLog, java.util.Map.of());
    }

    /** As above, with {@code environment} laid over this JVM's for the child (a database handed on, say). */
    public static int run(Path home, List<String> jvmOptions, List<String> matrixArguments, Path stdoutLog, Path stderrLog,
            java.util.Map<String, String> environment) throws Exception {
        List<String> options = new ArrayList<>(LAB_JVM_OPTIONS);
        options.add("-Dlab.home=" + home);
        options.addAll(jvmOptions);
        Path jar = LabHome.requireFile(LabHome.labJar(home), "build the lab first (./lab builds it)");
        List<String> command = JavaCommand.of(options, "-jar", jar.toString(), "matrix");
        command.addAll(matrixArguments);
        Process process = Exec.command(command).addingEnvironment(environment).withStdout(Exec.Io.file(stdoutLog))
                .withStderr(Exec.Io.file(stderrLog)).start();
        return Exec.awaitOrKill(process, LIMIT) ? process.exitValue() : -1;
    }
}
