package lab.continuationreplay.store.postgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

final class Folders {
    private Folders() {}

    /**
     * Deletes {@code root} and everything in it. A server that was just killed may still be removing its own files,
     * so a walk that meets a vanished file is simply walked again (three times at most); what cannot be deleted is
     * left in the temporary folder.
     */
    static void deleteQuietly(Path root) {
        for (int walk = 0; walk < 3 && Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS); walk++) {
            try (var paths = Files.walk(root)) {
                for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                    try {
                        Files.deleteIfExists(path);
                    } catch (IOException ignored) {
                        // tried again on the next walk
                    }
                }
            } catch (IOException | java.io.UncheckedIOException ignored) {
                // a file vanished under the walk: walk again
            }
        }
    }
}
