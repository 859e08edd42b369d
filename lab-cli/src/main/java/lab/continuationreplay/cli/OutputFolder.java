package lab.continuationreplay.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.stream.Stream;

/** Where a command writes: the folder given, or {@code target/attempts/<prefix>-<UTC time>}; evidence is never overwritten. */
final class OutputFolder {
    private OutputFolder() {}

    /** {@code out} as an absolute path, or a new timestamped folder under the lab's {@code target/attempts/}. */
    static Path of(Path out, Path home, String prefix) {
        return out != null ? out.toAbsolutePath().normalize() : home.resolve("target").resolve("attempts").resolve(prefix + "-"
                + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'")));
    }

    /** Refuses a folder that is a file or holds anything: a run never mixes its evidence with another's. */
    static void requireNewOrEmpty(Path folder) throws IOException {
        if (Files.exists(folder)) {
            if (!Files.isDirectory(folder)) {
                throw new IllegalArgumentException("--out " + folder + " is a file, not a folder");
            }
            try (Stream<Path> entries = Files.list(folder)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("--out " + folder + " is not empty; the lab never overwrites evidence");
                }
            }
        }
    }
}
