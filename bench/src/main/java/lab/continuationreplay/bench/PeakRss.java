package lab.continuationreplay.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/** A process's peak resident set size so far: {@code VmHWM} in {@code /proc/<pid>/status} (Linux only). */
final class PeakRss {
    private PeakRss() {}

    static OptionalLong kib(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    return OptionalLong.of(Long.parseLong(line.replaceAll("[^0-9]", "")));
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone, or not Linux
        }
        return OptionalLong.empty();
    }

    static double mib(long pid) {
        OptionalLong kib = kib(pid);
        if (kib.isEmpty()) {
            throw new IllegalStateException("no VmHWM for process " + pid + " (not running, or not Linux)");
        }
        return kib.getAsLong() / 1024.0;
    }
}
