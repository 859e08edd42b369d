package lab.continuationreplay.replicas;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The run's secrets, made fresh for it and kept outside the evidence: the database role's password, and each
 * principal's bearer-token file. They live in one folder ({@code 0700}) that every container of the run mounts
 * read-only at {@link #MOUNT}; the folder is deleted when the run ends.
 */
final class Secrets implements AutoCloseable {
    static final String MOUNT = "/run/crlab";
    static final String LEDGER_PASSWORD = "ledger-password";

    private final Path folder;
    private final byte[] ledgerPassword;

    private Secrets(Path folder, byte[] ledgerPassword) {
        this.folder = folder;
        this.ledgerPassword = ledgerPassword;
    }

    static Secrets create() throws IOException {
        Path folder = Files.createTempDirectory("crlab-replicas-secrets-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        // 64 hexadecimal characters: 64 bytes, printable, nothing a shell or a connection string would mangle
        byte[] password = HexFormat.of().formatHex(random).getBytes(StandardCharsets.US_ASCII);
        Path file = folder.resolve(LEDGER_PASSWORD);
        Files.write(file, password);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return new Secrets(folder, password);
    }

    byte[] ledgerPassword() {
        return ledgerPassword.clone();
    }

    /** Where a container finds the password file. */
    static String ledgerPasswordInside() {
        return MOUNT + "/" + LEDGER_PASSWORD;
    }

    /** Copies a bearer-token file in; returns its path inside the containers. */
    String addTokens(Path tokens, String name) throws IOException {
        Path copy = folder.resolve(name);
        Files.copy(tokens, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-------"));
        return MOUNT + "/" + name;
    }

    List<String> mountOptions() {
        return List.of("--volume", folder + ":" + MOUNT + ":ro");
    }

    @Override
    public void close() throws IOException {
        java.util.Arrays.fill(ledgerPassword, (byte) 0);
        if (Files.exists(folder)) {
            try (Stream<Path> paths = Files.walk(folder)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }
}
