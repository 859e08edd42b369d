package lab.continuationreplay.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OfficialSuiteTest {
    private static final Path HOME = Path.of(System.getProperty("lab.home", ".."));

    @Test
    void packageJsonAndTheLockPinTheVersionTheLabNames() throws Exception {
        JsonNode pkg = ExactJson.parse(Files.readString(HOME.resolve("conformance/package.json")));
        assertEquals(OfficialSuite.VERSION, pkg.path("dependencies").path("@modelcontextprotocol/conformance").asText());
        JsonNode lock = ExactJson.parse(Files.readString(HOME.resolve("conformance/package-lock.json")));
        JsonNode locked = lock.path("packages").path("node_modules/@modelcontextprotocol/conformance");
        assertEquals(OfficialSuite.VERSION, locked.path("version").asText());
        assertTrue(locked.path("integrity").asText().startsWith("sha512-"), locked.toString());
        String nodeVersion = pkg.path("dependencies").path("node").asText();
        assertTrue(nodeVersion.matches("22\\.\\d+\\.\\d+"), "an exact Node 22, not a range: " + nodeVersion);
        assertEquals(nodeVersion, lock.path("packages").path("node_modules/node").path("version").asText());
    }

    @Test
    void aHomeWithoutTheInstalledSuiteSaysHowToGetIt(@TempDir Path empty) {
        IllegalStateException missing = assertThrows(IllegalStateException.class, () -> new OfficialSuite(empty).command(java.util.List.of("list")));
        assertTrue(missing.getMessage().endsWith("is missing; build the lab first (./lab builds it; or npm ci in conformance/)"),
                missing.getMessage());
    }
}
