package lab.continuationreplay.store.stdio;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.management.ObjectName;

/**
 * stdout of a stdio process (an MCP server, the bridge) is its wire: nothing but frames may reach it. Two things
 * besides the program write there by default: code that prints to {@code System.out}, and the JVM itself (unified
 * logging, e.g. a class-data archive it rejects at start). {@link #claim} closes both doors from the inside;
 * {@link #JVM_OPTIONS} closes the JVM's door from the first instant, before any Java code runs.
 */
public final class WireStdout {
    /**
     * What every launcher passes to a JVM whose stdout is a wire (the shared rule table
     * {@code vectors/rules/stdio-jvm-options.json}, which the TypeScript bridge launcher follows too).
     */
    public static final List<String> JVM_OPTIONS = List.of("-Xlog:disable", "-Xlog:all=warning:stderr",
            "-XX:+DisplayVMOutputToStderr");

    private WireStdout() {}

    /**
     * Takes stdout for the wire and returns the only stream that writes to it; {@code System.out} goes to stderr from
     * now on. A JVM started without {@link #JVM_OPTIONS} (by hand, say) gets its logging moved to stderr now, and
     * stderr says that whatever the JVM logged while starting may already be on the wire.
     */
    public static OutputStream claim(String program) {
        OutputStream wire = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
        System.setOut(System.err);
        if (!launchedWithOptions()) {
            String moved = moveJvmLoggingToStderr();
            System.err.println(program + ": started without " + String.join(" ", JVM_OPTIONS) + "; " + moved
                    + " (what it logged while starting may have reached stdout)");
        }
        return wire;
    }

    /** Whether this JVM's command line carries {@link #JVM_OPTIONS} (Linux; elsewhere: assume not). */
    static boolean launchedWithOptions() {
        return launchedWith(commandLine());
    }

    static boolean launchedWith(List<String> arguments) {
        return arguments.containsAll(JVM_OPTIONS);
    }

    private static List<String> commandLine() {
        Path cmdline = Path.of("/proc/self/cmdline");
        try {
            // Cheaper than ProcessHandle.info() (about 10 ms) on the start-up path of every server.
            if (Files.isReadable(cmdline)) {
                return Arrays.asList(new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).split("\0"));
            }
        } catch (IOException ignored) {
            // fall back below
        }
        return ProcessHandle.current().info().arguments().map(Arrays::asList).orElse(List.of());
    }

    /** The {@code VM.log} diagnostic command, as {@code jcmd} would send it: about 120 ms, so only when needed. */
    private static String moveJvmLoggingToStderr() {
        try {
            var server = ManagementFactory.getPlatformMBeanServer();
            ObjectName commands = new ObjectName("com.sun.management:type=DiagnosticCommand");
            String[] signature = {String[].class.getName()};
            server.invoke(commands, "vmLog", new Object[] {new String[] {"disable"}}, signature);
            server.invoke(commands, "vmLog", new Object[] {new String[] {"output=stderr", "what=all=warning"}}, signature);
            return "moved the JVM's logging to stderr";
        } catch (Exception | LinkageError e) {
            return "could not move the JVM's logging to stderr (" + e + ")";
        }
    }
}
