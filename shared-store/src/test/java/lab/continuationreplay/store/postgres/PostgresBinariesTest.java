package lab.continuationreplay.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The binaries' cache in the temporary folder: made when absent, made again when an earlier run left it incomplete. */
class PostgresBinariesTest {

    @Test
    void anAbsentCacheIsUnpackedWithItsMarkerLast(@TempDir Path parent) throws Exception {
        Path folder = PostgresBinaries.unpacked(parent);
        assertTrue(PostgresBinaries.complete(folder));
        assertTrue(Files.isExecutable(folder.resolve("bin/initdb")));
        assertEquals(folder, PostgresBinaries.unpacked(parent), "the second call reuses it");
        assertEquals(1, entries(parent), "no staging folder left");
    }

    @Test
    void aFolderThatLostFilesOrNeverGotItsMarkerIsUnpackedAgain(@TempDir Path parent) throws Exception {
        Path broken = Files.createDirectories(parent.resolve("continuation-replay-postgres-" + PostgresBinaries.VERSION));
        Files.writeString(broken.resolve("leftover"), "half of an earlier unpack");
        Path folder = PostgresBinaries.unpacked(parent);
        assertTrue(PostgresBinaries.complete(folder));
        assertFalse(Files.exists(folder.resolve("leftover")));
        // a complete unpack whose programs a cleaner removed
        Files.delete(folder.resolve("bin/postgres"));
        assertTrue(PostgresBinaries.complete(PostgresBinaries.unpacked(parent)));
        assertEquals(1, entries(parent), "the incomplete copies are deleted");
    }

    private static long entries(Path parent) throws Exception {
        try (Stream<Path> list = Files.list(parent)) {
            return list.count();
        }
    }
}
