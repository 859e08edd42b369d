package lab.continuationreplay.core.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;

/** The run's bearer tokens: their shape, one per principal, and the private files servers read them from. */
class BearerCredentialsTest {
    private static JsonNode json(Path file) throws Exception {
        return ExactJson.parse(Files.readString(file));
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        Iterator<String> fields = object.fieldNames();
        fields.forEachRemaining(names::add);
        return names;
    }

    @Test
    void aTokenIs43UrlSafeCharactersAndEveryPrincipalGetsItsOwn() {
        Set<String> tokens = new HashSet<>();
        try (BearerCredentials credentials = new BearerCredentials(); BearerCredentials other = new BearerCredentials()) {
            for (int i = 0; i < 100; i++) {
                String token = credentials.token("principal-" + i);
                assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);
                assertTrue(tokens.add(token), "a token issued twice: " + token);
            }
            assertNotEquals(credentials.token("alice"), other.token("alice"), "another run mints another token");
        }
    }

    @Test
    void thePrincipalKeepsItsTokenAndTheTokenNamesItsPrincipal() {
        try (BearerCredentials credentials = new BearerCredentials()) {
            String alice = credentials.token("alice");
            String bob = credentials.token("bob");
            assertEquals(alice, credentials.token("alice"));
            assertEquals(Map.of(alice, "alice", bob, "bob"), credentials.principalsByToken());
        }
    }

    @Test
    void threadsAskingForOnePrincipalAtOnceGetOneToken() throws Exception {
        try (BearerCredentials credentials = new BearerCredentials()) {
            Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    seen.add(credentials.token("carol"));
                });
                threads.add(thread);
                thread.start();
            }
            start.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(Set.of(credentials.token("carol")), seen);
        }
    }

    @Test
    void eachFileHoldsEveryPrincipalSoFarAndAnEarlierFileNeverChanges() throws Exception {
        try (BearerCredentials credentials = new BearerCredentials()) {
            Path first = credentials.fileFor("alice");
            String firstText = Files.readString(first);
            assertEquals(List.of("alice"), names(json(first)));
            assertEquals(credentials.token("alice"), json(first).path("alice").textValue());

            Path second = credentials.fileFor("bob", "carol");
            assertNotEquals(first, second);
            assertEquals(List.of("alice", "bob", "carol"), names(json(second)));
            assertEquals(credentials.token("carol"), json(second).path("carol").textValue());
            assertEquals(firstText, Files.readString(first), "a running server's file stays as it was");

            credentials.token("dave");
            Path third = credentials.fileFor();
            assertEquals(List.of("alice", "bob", "carol", "dave"), names(json(third)), "principals minted since are in the next file");
            assertEquals(first.getParent(), third.getParent());
        }
    }

    @Test
    void theFilesAreOwnerOnlyInAnOwnerOnlyFolderOutsideTheWorkingDirectory() throws Exception {
        try (BearerCredentials credentials = new BearerCredentials()) {
            Path file = credentials.fileFor("alice");
            Path folder = file.getParent();
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
            Path workingDirectory = Path.of("").toAbsolutePath();
            assertFalse(file.toAbsolutePath().startsWith(workingDirectory), file + " is inside " + workingDirectory);
            assertTrue(folder.getFileName().toString().startsWith("lab-bearer-"), folder.toString());
        }
    }

    @Test
    void closeDeletesTheFolderWithEveryFile() throws Exception {
        BearerCredentials credentials = new BearerCredentials();
        Path first = credentials.fileFor("alice");
        Path second = credentials.fileFor("bob");
        credentials.close();
        assertFalse(Files.exists(first));
        assertFalse(Files.exists(second));
        assertFalse(Files.exists(first.getParent()));
        assertThrows(UncheckedIOException.class, () -> credentials.fileFor("carol"), "no file is written after close");
        credentials.close();
    }
}
