package lab.continuationreplay.core.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sqlite's native library unpacked once per lab home, and named to the JVMs the lab starts. */
class NativeSqliteTest {
    @Test
    void unpacksTheLibraryOnceAndNamesItToAJvm(@TempDir Path dir) throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        List<String> options = NativeSqlite.options(home);
        assertEquals(2, options.size(), options.toString());
        Path folder = Path.of(options.get(0).substring(("-D" + NativeSqlite.PATH_PROPERTY + "=").length()));
        Path library = folder.resolve(options.get(1).substring(("-D" + NativeSqlite.NAME_PROPERTY + "=").length()));
        assertTrue(folder.startsWith(home.resolve("target").resolve("native")), folder.toString());
        assertTrue(Files.size(library) > 100_000, "the whole library: " + Files.size(library));
        try (var left = Files.list(folder)) {
            assertEquals(List.of(library), left.toList(), "nothing but the library is left in its folder");
        }
        // Another lab on the same home (here by another path, so this JVM's memo does not answer) finds it in place
        // and leaves it as it is.
        FileTime written = FileTime.fromMillis(Files.getLastModifiedTime(library).toMillis() - 60_000);
        Files.setLastModifiedTime(library, written);
        Path sameHome = Files.createSymbolicLink(dir.resolve("link"), home);
        List<String> again = NativeSqlite.options(sameHome);
        assertEquals(2, again.size(), again.toString());
        assertTrue(again.get(0).contains(sameHome.toString()), again.toString());
        assertEquals(written, Files.getLastModifiedTime(library));
    }

    @Test
    void aHomeWhereNothingCanBeWrittenMeansNoOptionsNotAFailure(@TempDir Path dir) throws Exception {
        Path home = dir.resolve("home");
        Files.createDirectories(home);
        Files.writeString(home.resolve("target"), "a file where the build folder should be");
        assertEquals(List.of(), NativeSqlite.options(home));
    }
}
