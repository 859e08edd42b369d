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
 * Releases whose builds fail, each in a lab home of the test's own with the lab's real sources and a lock committed
 * there: the row is "not built" with the tool's own reason, and what was installed (if anything) is recorded. A failed
 * build is kept while its inputs stay the same, and a changed lock builds again.
 */
class ReleaseHomeIT {
    private static final String WRONG_HASH = "iniconfig==2.3.1 \\\n    --hash=sha256:" + "0".repeat(64) + "\n";

    @TempDir
    Path home;

    @Test
    void aLockPipRefusesLeavesTheRowNotBuiltWithPipsReason() throws Exception {
        Path real = LabHome.resolve();
        Files.createDirectories(home.resolve("py-fixture"));
        Files.copy(real.resolve("py-fixture/build_venv.py"), home.resolve("py-fixture/build_venv.py"));
        Files.createSymbolicLink(home.resolve("py-fixture/src"), real.resolve("py-fixture/src").toAbsolutePath());
        Path lock = Files.createDirectories(home.resolve("versions/python/2.0.0")).resolve("requirements.lock");
        Files.writeString(lock, WRONG_HASH);
        Release release = new Release(Sdk.PYTHON, "2.0.0");

        ReleaseHome.Built failed = ReleaseHome.prepare(home, release);
        assertFalse(failed.playable(), failed.record().toString());
        assertEquals("", failed.record().path("installed").asText(), failed.record().toString());
        assertEquals("versions/python/2.0.0/requirements.lock", failed.record().path("lock").asText());
        assertNotEquals(0, failed.record().path("steps").get(0).path("exit").asInt(), failed.record().toString());
        assertTrue(failed.log().contains("DO NOT MATCH THE HASHES"), failed.log());
        assertTrue(failed.record().path("build_errors").get(0).asText().contains("DO NOT MATCH THE HASHES"),
                "pip's refusal is the row's reason: " + failed.record());
    }

    /**
     * A Go release without MRTR (v1.6.1), from its committed lock: the compiler's first error is the row's reason, and
     * the SDK release the module proxy delivered is still recorded.
     */
    @Test
    void aGoReleaseWithoutMrtrIsNotBuiltAndItsCompilerSaysWhy() throws Exception {
        Path real = LabHome.resolve();
        linkFromTheLab(real, "go-fixture");
        Path lock = Files.createDirectories(home.resolve("versions/go/1.6.1"));
        for (String file : new String[] {"go.mod", "go.sum"}) {
            Files.copy(real.resolve("versions/go/1.6.1").resolve(file), lock.resolve(file));
        }
        ReleaseHome.Built failed = ReleaseHome.prepare(home, new Release(Sdk.GO, "1.6.1"));
        assertFalse(failed.playable(), failed.record().toString());
        assertEquals("1.6.1", failed.record().path("installed").asText(), failed.record().toString());
        assertEquals("go build -tags gosdk_before_v1_8 -o target/bin/ ./cmd/...", failed.record().path("steps").get(0).path("command").asText());
        String first = failed.record().path("build_errors").get(0).asText();
        assertTrue(first.matches(".*\\.go:[0-9]+:[0-9]+: .*InputRequest.*"), "the missing MRTR field is named: " + failed.record());
        assertTrue(failed.log().contains(first), failed.log());
    }

    /**
     * A Java release without the SDK's modern stack (2.1.0): first with a {@code resolved.txt} that does not match what
     * Maven resolves (refused before compiling), then with the committed one, where javac's first error is the reason.
     */
    @Test
    void aJavaReleaseIsCheckedAgainstItsResolvedJarsAndWithoutMrtrIsNotBuilt() throws Exception {
        Path real = LabHome.resolve();
        linkFromTheLab(real, "java-server", "vectors");
        Path lock = Files.createDirectories(home.resolve("versions/java/2.1.0"));
        Files.copy(real.resolve("versions/java/2.1.0/pom.xml"), lock.resolve("pom.xml"));
        Files.writeString(lock.resolve("resolved.txt"), Files.readString(real.resolve("versions/java/2.1.0/resolved.txt"))
                .replace("reactor-core-3.7.0.jar", "reactor-core-3.6.0.jar"));
        Release release = new Release(Sdk.JAVA, "2.1.0");

        ReleaseHome.Built drifted = ReleaseHome.prepare(home, release);
        assertFalse(drifted.playable(), drifted.record().toString());
        String why = drifted.record().path("build_errors").get(0).asText();
        assertTrue(why.startsWith("Maven resolved [") && why.contains("reactor-core-3.7.0.jar") && why.contains("reactor-core-3.6.0.jar"), why);
        assertEquals(1, drifted.record().path("steps").size(), "nothing is compiled from jars the lock does not name");

        Files.copy(real.resolve("versions/java/2.1.0/resolved.txt"), lock.resolve("resolved.txt"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        ReleaseHome.Built failed = ReleaseHome.prepare(home, release);
        assertFalse(failed.playable(), failed.record().toString());
        assertEquals("2.1.0", failed.record().path("installed").asText(), failed.record().toString());
        String first = failed.record().path("build_errors").get(0).asText();
        assertTrue(first.matches("src/main/java/.*\\.java:[0-9]+: error: package io\\.modelcontextprotocol\\.modern.* does not exist"),
                "the missing modern stack is named, from the release's folder: " + first);
    }

    /**
     * A Rust release whose lock does not fit its Cargo.toml: {@code cargo build --locked} refuses it before compiling
     * anything, and cargo's error is the row's reason. The failed build is kept while its inputs stay the same, and
     * another lock builds again (cargo refuses within a second, so this is where keeping is tested).
     */
    @Test
    void aRustLockThatCargoMustNotUpdateLeavesTheRowNotBuiltAndIsKeptUntilTheLockChanges() throws Exception {
        Path real = LabHome.resolve();
        linkFromTheLab(real, "rust-fixture", "vectors");
        Path lock = Files.createDirectories(home.resolve("versions/rust/3.5.1"));
        Files.copy(real.resolve("versions/rust/3.5.1/Cargo.toml"), lock.resolve("Cargo.toml"));
        // the lock of another release: Cargo.toml asks for rmcp =3.5.1, and --locked forbids moving the lock to it
        Files.copy(real.resolve("versions/rust/3.4.1/Cargo.lock"), lock.resolve("Cargo.lock"));
        ReleaseHome.Built failed = ReleaseHome.prepare(home, new Release(Sdk.RUST, "3.5.1"));
        assertFalse(failed.playable(), failed.record().toString());
        assertEquals("cargo build --release --locked --quiet --bin rust-fixture --target-dir ../../rust-target",
                failed.record().path("steps").get(0).path("command").asText());
        String first = failed.record().path("build_errors").get(0).asText();
        assertTrue(first.startsWith("error") && first.contains("--locked"), "cargo names the lock it may not update: " + failed.log());
        assertEquals("3.4.1", failed.record().path("installed").asText(), "the lock's rmcp: " + failed.record());
        assertTrue(Files.isSymbolicLink(failed.home().resolve("vectors")), "every other entry is the lab's own");
        assertFalse(Files.isSymbolicLink(failed.home().resolve("rust-fixture")), "the fixture folder is the release's own");

        ReleaseHome.Built again = ReleaseHome.prepare(home, new Release(Sdk.RUST, "3.5.1"));
        assertTrue(again.record().path("reused").asBoolean(), "the same inputs are not built twice: " + again.record());
        assertEquals("", again.log());

        Files.copy(real.resolve("versions/rust/3.2.0/Cargo.lock"), lock.resolve("Cargo.lock"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        ReleaseHome.Built changed = ReleaseHome.prepare(home, new Release(Sdk.RUST, "3.5.1"));
        assertFalse(changed.record().path("reused").asBoolean(), "a changed lock builds again: " + changed.record());
        assertEquals("3.2.0", changed.record().path("installed").asText());
        assertNotEquals(failed.record().path("lock_sha256").asText(), changed.record().path("lock_sha256").asText());
    }

    @Test
    void aMissingLockIsRefusedBeforeAnythingIsMade() {
        IllegalArgumentException noLock = assertThrows(IllegalArgumentException.class,
                () -> ReleaseHome.prepare(home, new Release(Sdk.PYTHON, "2.0.0")));
        assertEquals("no lock for python-2.0.0 in versions/python/2.0.0 (versions/lock-python.sh makes it)", noLock.getMessage());
        assertFalse(Files.exists(home.resolve("target")), "nothing is made for a refused release");
    }

    /** The test's home takes these folders of the lab as links: the real sources a release is built from. */
    private void linkFromTheLab(Path real, String... folders) throws java.io.IOException {
        for (String folder : folders) {
            Files.createSymbolicLink(home.resolve(folder), real.resolve(folder).toAbsolutePath());
        }
    }
}
