package lab.continuationreplay.matrix.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SDK versions provenance.json records are read from what was installed or pinned, and absent ones say so. */
class ProvenanceVersionsTest {
    private static final String GO_SDK = "github.com/modelcontextprotocol/go-sdk";

    @TempDir
    Path dir;

    @Test
    void goModsRequirementIsReadFromASingleLineOrABlock() throws Exception {
        Path single = Files.writeString(dir.resolve("single.mod"), "module x\n\ngo 1.25.0\n\nrequire " + GO_SDK + " v1.8.0\n");
        Path block = Files.writeString(dir.resolve("block.mod"), "module x\n\nrequire (\n\t" + GO_SDK + "-extra v9.9.9\n\t" + GO_SDK
                + " v1.7.0 // indirect\n)\n");
        assertEquals("1.8.0", Provenance.goRequirement(single, GO_SDK));
        assertEquals("1.7.0", Provenance.goRequirement(block, GO_SDK), "a longer module name is another module");
        assertEquals("unavailable", Provenance.goRequirement(dir.resolve("absent.mod"), GO_SDK));
        assertEquals("unavailable", Provenance.goRequirement(Files.writeString(dir.resolve("other.mod"), "module x\n"), GO_SDK));
    }

    @Test
    void aPythonDistributionsVersionIsItsDistInfoFolders() throws Exception {
        Path venv = dir.resolve(".venv");
        Path sitePackages = Files.createDirectories(venv.resolve("lib/python3.11/site-packages"));
        Files.createDirectories(sitePackages.resolve("mcp_types-2.0.0.dist-info"));
        Files.createDirectories(sitePackages.resolve("mcp-2.0.1.dist-info"));
        assertEquals("2.0.1", Provenance.pythonDistribution(venv, "mcp"));
        assertEquals("", Provenance.pythonDistribution(venv, "pytest"), "not installed");
        assertEquals("", Provenance.pythonDistribution(dir.resolve("no-venv"), "mcp"));
    }

    @Test
    void aCratesVersionIsTheLocksEntryForThatName() throws Exception {
        Path lock = Files.writeString(dir.resolve("Cargo.lock"), "version = 4\n\n[[package]]\nname = \"rmcp-macros\"\nversion = \"0.9.0\"\n\n"
                + "[[package]]\nname = \"rmcp\"\nversion = \"3.4.1\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n");
        assertEquals("3.4.1", Provenance.cargoLocked(lock, "rmcp"), "rmcp-macros is another crate");
        assertEquals("", Provenance.cargoLocked(lock, "tokio"));
        assertEquals("", Provenance.cargoLocked(dir.resolve("absent.lock"), "rmcp"));
    }
}
