package lab.continuationreplay.store.postgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

final class Folders {
    private Folders() {}

    /** Deletes {@code root} and everything in it; what cannot be deleted is left (a temporary folder, at worst). */
    static void deleteQuietly(Path root) {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException ignored) {
                    // left behind in a temporary folder
                }
            }
        } catch (IOException ignored) {
            // left behind in a temporary folder
        }
    }
}
