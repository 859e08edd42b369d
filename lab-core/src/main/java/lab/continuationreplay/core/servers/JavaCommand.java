package lab.continuationreplay.core.servers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.store.stdio.WireStdout;

/**
 * The start of every command line that runs a JVM for the lab: this JVM's own {@code java}, then the options that keep
 * the JVM's logging off stdout ({@link WireStdout#JVM_OPTIONS}). A JVM the lab starts is a stdio server, a bridge, a
 * proxy between the two, or a child whose stdout the lab reads; in each, stdout carries only what the program writes.
 */
public final class JavaCommand {
    private JavaCommand() {}

    /** {@code <java.home>/bin/java}: the children run on the JDK that runs the lab. */
    public static String executable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** {@code java}, the stdout options, then {@code options} and {@code rest} as given. */
    public static List<String> of(List<String> options, String... rest) {
        List<String> command = new ArrayList<>();
        command.add(executable());
        command.addAll(WireStdout.JVM_OPTIONS);
        command.addAll(options);
        command.addAll(List.of(rest));
        return command;
    }
}
