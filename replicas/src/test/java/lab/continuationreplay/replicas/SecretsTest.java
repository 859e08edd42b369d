package lab.continuationreplay.replicas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run's secrets: fresh, private to the lab's user, mounted read-only, and gone when the run ends. */
class SecretsTest {
    @TempDir
    Path dir;

    private static Path folderOf(Secrets secrets) {
        List<String> options = secrets.mountOptions();
        assertEquals("--volume", options.get(0));
        assertTrue(options.get(1).endsWith(":" + Secrets.MOUNT + ":ro"), options.get(1));
        return Path.of(options.get(1).substring(0, options.get(1).indexOf(':')));
    }

    @Test
    void thePasswordIsFreshLongEnoughAndOnlyTheOwnerCanReadIt() throws Exception {
        try (Secrets first = Secrets.create(); Secrets second = Secrets.create()) {
            byte[] password = first.ledgerPassword();
            assertTrue(password.length >= 32, "at least 32 bytes");
            assertFalse(Arrays.equals(password, second.ledgerPassword()), "a fresh password per run");
            Path folder = folderOf(first);
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
            Path file = folder.resolve(Secrets.LEDGER_PASSWORD);
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
            assertTrue(Arrays.equals(password, Files.readAllBytes(file)));
            assertEquals(Secrets.MOUNT + "/" + Secrets.LEDGER_PASSWORD, Secrets.ledgerPasswordInside());
        }
    }

    @Test
    void aTokensFileIsCopiedInPrivatelyAndEverythingIsDeletedAtTheEnd() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.json"), "{\"alice\":\"a-token-of-at-least-thirty-two-bytes!!\"}");
        Secrets secrets = Secrets.create();
        Path folder = folderOf(secrets);
        assertEquals(Secrets.MOUNT + "/tokens-alice.json", secrets.addTokens(tokens, "tokens-alice.json"));
        Path copy = folder.resolve("tokens-alice.json");
        assertEquals(Files.readString(tokens), Files.readString(copy));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(copy)));
        secrets.close();
        assertFalse(Files.exists(folder), "the folder and every secret in it are deleted");
        secrets.close(); // a second close (the run's clean-up and its try block) is harmless
    }
}
