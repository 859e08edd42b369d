package lab.continuationreplay.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU time used so far by a process and every live process below it (a TS fixture's bridge child counts with the
 * fixture), from {@code /proc/PID/stat}: user + system time, in the kernel's USER_HZ ticks, which Linux fixes at 100
 * per second for this interface. Empty where there is no {@code /proc} (the figures that need it are then left out).
 */
final class ProcessCpu {
    private static final long NANOS_PER_TICK = 10_000_000L;

    private ProcessCpu() {}

    static boolean available() {
        return Files.isReadable(Path.of("/proc/self/stat"));
    }

    /** Nanoseconds of CPU used by {@code root} and its live descendants (a process that already ended counts 0). */
    static long nanos(ProcessHandle root) {
        return Stream.concat(Stream.of(root), root.descendants()).mapToLong(p -> ticks(p.pid())).sum() * NANOS_PER_TICK;
    }

    /**
     * Nanoseconds of CPU used by {@code process}'s main thread alone ({@code /proc/PID/task/PID/stat}; 0 when it is
     * gone): for node, the thread that runs all JavaScript.
     */
    static long mainThreadNanos(ProcessHandle process) {
        String pid = Long.toString(process.pid());
        try {
            return ticksOf(new String(Files.readAllBytes(Path.of("/proc", pid, "task", pid, "stat")), StandardCharsets.US_ASCII))
                    * NANOS_PER_TICK;
        } catch (IOException e) {
            return 0;
        }
    }

    /** utime + stime of one process; 0 when it is gone. */
    static long ticks(long pid) {
        String stat;
        try {
            stat = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "stat")), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return 0;
        }
        return ticksOf(stat);
    }

    /** utime + stime from the text of a {@code /proc/PID/stat} file. */
    static long ticksOf(String stat) {
        // The command name (field 2) is in parentheses and may hold spaces and parentheses: count fields after the
        // last closing one.
        String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // rest[0] is field 3 (state); utime and stime are fields 14 and 15.
        return Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
    }
}
