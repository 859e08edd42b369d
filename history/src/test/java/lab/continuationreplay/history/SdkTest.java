package lab.continuationreplay.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SDK axis: its order, its words, and its folders, which must be the repository's own. */
class SdkTest {
    @Test
    void theColumnsAreInOrderAndSaidOneWay() {
        assertEquals(List.of("java", "typescript", "python", "go", "rust"), Sdk.labels());
        assertEquals(Sdk.labels(), Layout.SDK_COLUMNS);
        assertEquals("java, typescript, python, go or rust", Sdk.listed());
        assertEquals(Sdk.PYTHON, Sdk.fromLabel("python"));
        assertEquals("unknown SDK 'csharp' (java, typescript, python, go or rust)",
                assertThrows(IllegalArgumentException.class, () -> Sdk.fromLabel("csharp")).getMessage());
    }

    /** A row names folders that exist, each with its build file: a renamed folder fails here, not in a run. */
    @Test
    void everyServerAndClientFolderIsInTheRepository() {
        Path home = Path.of(System.getProperty("lab.home", "..")).toAbsolutePath().normalize();
        for (Sdk sdk : Sdk.values()) {
            for (String folder : List.of(sdk.serverFolder(), sdk.clientFolder())) {
                assertTrue(Files.isRegularFile(home.resolve(folder).resolve("pom.xml")), sdk + ": no " + folder + "/pom.xml in " + home);
            }
        }
    }
}
