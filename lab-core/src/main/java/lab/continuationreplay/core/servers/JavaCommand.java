package lab.continuationreplay.core.servers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.core.LabHome;
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

    /**
     * A main class of the lab as a child JVM on the lab's own class path: {@code lab.jar}, whose manifest names every
     * module's jar in {@code lib/}, so the child runs the same build as the lab that starts it. Arguments follow.
     */
    public static List<String> labMain(Path home, List<String> options, Class<?> main) {
        List<String> all = new ArrayList<>(options);
        all.addAll(NativeSqlite.options(home));
        return onClassPath(LabHome.labJar(home).toString(), all, main);
    }

    /** As {@link #labMain}, on another class path (a test's own, or a benchmark's jar and its dependencies). */
    public static List<String> onClassPath(String classPath, List<String> options, Class<?> main) {
        return of(options, "-cp", classPath, main.getName());
    }
}
