package lab.continuationreplay.store.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts {@link LedgerChild} JVMs, releases them together at a barrier, and collects their one-line answers. */
final class ChildProcesses {
    /** One finished child: its exit status and its result line (null if it printed none). */
    record Outcome(int exitStatus, String line) {}

    private ChildProcesses() {}

    /** A child with the ledger variables {@code ledger} (and no other {@code WIRE_*} variable of this JVM). */
    static Process start(java.util.Map<String, String> ledger, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(lab.continuationreplay.store.stdio.WireStdout.JVM_OPTIONS); // a child's result line is on stdout
        command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), LedgerChild.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().keySet().removeIf(name -> name.startsWith("WIRE_"));
        builder.environment().putAll(ledger);
        return builder.start();
    }

    /** Waits until every child says "ready", then releases all of them with one line each. */
    static List<Outcome> releaseTogether(List<Process> children) throws IOException, InterruptedException {
        List<BufferedReader> readers = new ArrayList<>();
        for (Process child : children) {
            BufferedReader reader = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String first = reader.readLine();
            if (!"ready".equals(first)) {
                throw new IllegalStateException("child did not reach the barrier: " + first);
            }
            readers.add(reader);
        }
        for (Process child : children) {
            OutputStream stdin = child.getOutputStream();
            stdin.write("go\n".getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < children.size(); i++) {
            String line = readers.get(i).readLine();
            Process child = children.get(i);
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                child.destroyForcibly();
                throw new IllegalStateException("child did not finish");
            }
            outcomes.add(new Outcome(child.exitValue(), line));
        }
        return outcomes;
    }
}
