package lab.continuationreplay.core.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The archive's name follows everything the JVM checks it against, so a stale archive is never chosen. */
class ClassDataArchiveTest {
    @TempDir
    Path dir;

    private Path jarWithClassPath(String... entries) throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", entries));
        Path jar = dir.resolve("server.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            // a manifest is all the key reads
        }
        Files.createDirectories(dir.resolve("lib"));
        for (String entry : entries) {
            Files.writeString(dir.resolve(entry), "jar " + entry);
        }
        return jar;
    }

    @Test
    void theClassPathIsTheJarAndItsManifestEntries() throws Exception {
        Path jar = jarWithClassPath("lib/a.jar", "lib/b.jar");
        assertEquals(List.of(jar, dir.resolve("lib/a.jar"), dir.resolve("lib/b.jar")), ClassDataArchive.classPath(jar));
    }

    @Test
    void aDependencyCopiedAgainWithANewTimeOrSizeGetsANewArchive() throws Exception {
        Path jar = jarWithClassPath("lib/a.jar", "lib/b.jar");
        Path home = dir.resolve("home");
        Path first = ClassDataArchive.archiveFor(home, jar);
        assertEquals(first, ClassDataArchive.archiveFor(home, jar), "nothing changed, the same archive");

        Path dependency = dir.resolve("lib/b.jar");
        Files.setLastModifiedTime(dependency, FileTime.fromMillis(Files.getLastModifiedTime(dependency).toMillis() + 1000));
        Path touched = ClassDataArchive.archiveFor(home, jar);
        assertNotEquals(first, touched, "a re-copied dependency (new modification time) must not reuse the archive");

        FileTime same = Files.getLastModifiedTime(dependency);
        Files.writeString(dependency, "jar lib/b.jar, rebuilt");
        Files.setLastModifiedTime(dependency, same);
        assertNotEquals(touched, ClassDataArchive.archiveFor(home, jar), "another size must not reuse the archive");

        String name = first.getFileName().toString();
        assertEquals(home.resolve("target/cds"), first.getParent());
        assertEquals(true, name.startsWith("server-jdk") && name.endsWith(".jsa"), name);
    }
}
