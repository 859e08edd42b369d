package lab.continuationreplay.matrix.versions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.history.Sdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A release whose build fails, in a lab home of the test's own: the Python fixture's real {@code build_venv.py} and
 * sources, and a committed lock that pip refuses (a hash that matches no file). The row is "not built" with pip's
 * reason in its log, nothing is installed, the failed build is kept while its inputs stay the same, and a changed lock
 * builds again.
 */
class ReleaseHomeIT {
    private static final String WRONG_HASH = "iniconfig==2.3.1 \\\n    --hash=sha256:" + "0".repeat(64) + "\n";

    @TempDir
    Path home;

    @Test
    void aLockPipRefusesLeavesTheRowNotBuiltWithPipsReasonAndKeepsItUntilTheLockChanges() throws Exception {
        Path real = LabHome.resolve();
        Files.createDirectories(home.resolve("py-fixture"));
        Files.copy(real.resolve("py-fixture/build_venv.py"), home.resolve("py-fixture/build_venv.py"));
        Files.createSymbolicLink(home.resolve("py-fixture/src"), real.resolve("py-fixture/src").toAbsolutePath());
        Files.writeString(home.resolve("README.md"), "a lab home of the test's own\n");
        Path lock = Files.createDirectories(home.resolve("versions/python/2.0.0")).resolve("requirements.lock");
        Files.writeString(lock, WRONG_HASH);
        Release release = new Release(Sdk.PYTHON, "2.0.0");

        ReleaseHome.Built failed = ReleaseHome.prepare(home, release);
        assertFalse(failed.playable(), failed.record().toString());
        assertEquals("", failed.record().path("installed").asText(), failed.record().toString());
        assertEquals("versions/python/2.0.0/requirements.lock", failed.record().path("lock").asText());
        assertNotEquals(0, failed.record().path("steps").get(0).path("exit").asInt(), failed.record().toString());
        assertTrue(failed.log().contains("DO NOT MATCH THE HASHES"), failed.log());
        assertTrue(Files.isSymbolicLink(failed.home().resolve("README.md")), "every other entry is the lab's own");
        assertFalse(Files.isSymbolicLink(failed.home().resolve("py-fixture")), "the fixture folder is the release's own");

        ReleaseHome.Built again = ReleaseHome.prepare(home, release);
        assertTrue(again.record().path("reused").asBoolean(), "the same inputs are not built twice: " + again.record());
        assertEquals("", again.log());

        Files.writeString(lock, WRONG_HASH.replace("iniconfig==2.3.1", "iniconfig==2.3.0"));
        ReleaseHome.Built changed = ReleaseHome.prepare(home, release);
        assertFalse(changed.record().path("reused").asBoolean(), "a changed lock builds again: " + changed.record());
        assertNotEquals(failed.record().path("lock_sha256").asText(), changed.record().path("lock_sha256").asText());
    }

    @Test
    void aMissingLockAndAnSdkWithoutARecipeAreRefusedBeforeAnythingIsMade() {
        IllegalArgumentException noLock = assertThrows(IllegalArgumentException.class,
                () -> ReleaseHome.prepare(home, new Release(Sdk.PYTHON, "2.0.0")));
        assertEquals("no lock for python-2.0.0 in versions/python/2.0.0 (versions/lock-python.sh makes it)", noLock.getMessage());
        IllegalArgumentException noRecipe = assertThrows(IllegalArgumentException.class,
                () -> ReleaseHome.prepare(home, new Release(Sdk.GO, "1.8.0")));
        assertEquals("lab versions builds typescript, python releases only so far, not go", noRecipe.getMessage());
        assertFalse(Files.exists(home.resolve("target")), "nothing is made for a refused release");
    }
}
