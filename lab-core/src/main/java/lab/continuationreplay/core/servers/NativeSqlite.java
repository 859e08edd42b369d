package lab.continuationreplay.core.servers;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;

/**
 * sqlite-jdbc's native library, unpacked once per lab home instead of once per JVM. By default every JVM that opens
 * SQLite inflates the 1.1 MB library from the jar into {@code java.io.tmpdir} as a new file, and deletes it only at an
 * orderly exit: every server the lab halts at a cut point or kills leaves its copy (and its {@code .lck}) behind for
 * good, since sqlite-jdbc's own clean-up skips files whose lock file exists. Thousands piled up on one machine. With
 * the library in {@code <home>/target/native/sqlite-<version>/} and {@code org.sqlite.lib.path}/{@code .name} naming
 * it, a JVM loads it in place: no inflating on the start-up path, nothing left behind. Any failure means no options,
 * and the JVM unpacks the library as before.
 */
public final class NativeSqlite {
    static final String PATH_PROPERTY = "org.sqlite.lib.path";
    static final String NAME_PROPERTY = "org.sqlite.lib.name";
    private static final Map<Path, List<String>> OPTIONS = new ConcurrentHashMap<>();

    private NativeSqlite() {}

    /** The system properties that make a JVM load the unpacked library, or none. */
    public static List<String> options(Path home) {
        return OPTIONS.computeIfAbsent(home.toAbsolutePath().normalize(), NativeSqlite::unpack);
    }

    /** Makes this JVM load the unpacked library too, unless someone chose a library already. */
    public static void useIn(Path home) {
        if (System.getProperty(PATH_PROPERTY) != null) {
            return;
        }
        for (String option : options(home)) {
            String setting = option.substring(2);
            int equals = setting.indexOf('=');
            System.setProperty(setting.substring(0, equals), setting.substring(equals + 1));
        }
    }

    private static List<String> unpack(Path home) {
        try {
            String resourceFolder = org.sqlite.util.OSInfo.getNativeLibFolderPathForCurrentOS();
            String name = System.mapLibraryName("sqlitejdbc");
            String resource = "/org/sqlite/native/" + resourceFolder + "/" + name;
            String version = org.sqlite.SQLiteJDBCLoader.getVersion().replaceAll("[^A-Za-z0-9._-]", "_");
            Path folder = home.resolve("target").resolve("native").resolve("sqlite-" + version + "-"
                    + resourceFolder.replaceAll("[^A-Za-z0-9._-]", "_"));
            Path library = folder.resolve(name);
            // The folder names the driver's version and platform, and a library only ever lands there whole (moved
            // into place), so one that is there is the right one: no reading 1.1 MB on every lab's start.
            if (!Files.isRegularFile(library)) {
                try (InputStream in = org.sqlite.SQLiteJDBCLoader.class.getResourceAsStream(resource)) {
                    if (in == null) {
                        return List.of();
                    }
                    Files.createDirectories(folder);
                    // Another lab may unpack at the same moment: each writes its own file and moves it into place whole.
                    Path partial = Files.createTempFile(folder, "unpacking-", ".tmp");
                    try {
                        Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                        Files.move(partial, library, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    } finally {
                        Files.deleteIfExists(partial);
                    }
                }
            }
            return List.of("-D" + PATH_PROPERTY + "=" + folder, "-D" + NAME_PROPERTY + "=" + name);
        } catch (Exception | LinkageError e) {
            System.err.println("lab: sqlite's native library stays per JVM (" + e + ")");
            return List.of();
        }
    }
}
