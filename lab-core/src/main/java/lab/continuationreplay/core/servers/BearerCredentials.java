package lab.continuationreplay.core.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The bearer tokens of one lab run over HTTP: a fresh random token per principal (32 random bytes, 43 characters),
 * minted on first use. Servers read them from a {@code WIRE_BEARER_TOKENS_FILE} in a private temporary folder outside
 * every output folder, which {@link #close()} deletes; evidence names a token only by its principal. Thread-safe.
 */
public final class BearerCredentials implements AutoCloseable {
    public static final String TOKENS_FILE_VARIABLE = "WIRE_BEARER_TOKENS_FILE";

    private final SecureRandom random = new SecureRandom();
    private final Map<String, String> tokens = new LinkedHashMap<>();
    private final Path folder;
    private int files;

    public BearerCredentials() {
        try {
            folder = Files.createTempDirectory("lab-bearer-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The token of {@code principal}, minted now if it has none yet. */
    public synchronized String token(String principal) {
        return tokens.computeIfAbsent(principal, p -> {
            byte[] bytes = new byte[32];
            random.nextBytes(bytes);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        });
    }

    /** Every token issued so far, by value, naming its principal (what a transcript shows instead of the token). */
    public synchronized Map<String, String> principalsByToken() {
        Map<String, String> byToken = new LinkedHashMap<>();
        tokens.forEach((principal, token) -> byToken.put(token, principal));
        return byToken;
    }

    /**
     * A new tokens file holding every principal issued so far plus {@code principals}: what a server started now
     * accepts. Each server gets its own file, so a file never changes under a running server.
     */
    public synchronized Path fileFor(String... principals) {
        for (String principal : principals) {
            token(principal);
        }
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        tokens.forEach(json::put);
        Path file = folder.resolve("tokens-" + (++files) + ".json");
        try {
            Files.writeString(file, json.toString(), java.nio.file.StandardOpenOption.CREATE_NEW);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** Deletes the folder and every tokens file in it. */
    @Override
    public synchronized void close() {
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // already gone
        }
    }
}
