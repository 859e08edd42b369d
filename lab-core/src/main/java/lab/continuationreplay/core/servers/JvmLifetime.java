package lab.continuationreplay.core.servers;

import java.util.List;

/**
 * How long a JVM the lab starts will live, which decides its compilers. Both use the serial collector and a 64 MiB
 * heap: one client at a time needs no concurrent collector, and the cap keeps peak RSS inside {@code lab bench}'s
 * 160 MiB budget.
 */
public enum JvmLifetime {
    /**
     * A case's server or bridge: a few calls, then gone, often halted at a cut point. Start-up is nearly all of its
     * life, so C1 alone: C2 would spend a core compiling code the process never gets to run. No performance-data file
     * either: nothing attaches {@code jstat} to a process that lives a second. The fixtures' default bridge command
     * has the same options ({@code vectors/rules/case-jvm-options.json}).
     */
    SHORT(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m", "-XX:-UsePerfData")),
    /**
     * A benchmark's warm server or bridge, thousands of calls: full tiered compilation, as a deployed server runs, so
     * the figures measure the code and not the interpreter.
     */
    LONG(List.of("-XX:+UseSerialGC", "-Xmx64m"));

    private final List<String> options;

    JvmLifetime(List<String> options) {
        this.options = options;
    }

    public List<String> options() {
        return options;
    }
}
