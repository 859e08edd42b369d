package lab.continuationreplay.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code lab bench} times {@code lab matrix} as {@link MatrixAsProcess} starts it: the figure is a user's only when
 * that JVM has the options the {@code lab} script gives a matrix run.
 */
class LabScriptOptionsTest {
    @Test
    void theLabScriptGivesAMatrixRunTheOptionsTheBenchTimesItWith() throws Exception {
        String script = Files.readString(Path.of("..", "lab"));
        String matrixLine = script.lines().filter(l -> l.strip().startsWith("*) short_lived=")).findFirst()
                .orElseThrow(() -> new AssertionError("no case for the short-lived commands, matrix among them, in the lab script"));
        assertTrue(matrixLine.contains("(" + String.join(" ", MatrixAsProcess.LAB_JVM_OPTIONS) + ")"), matrixLine);
    }
}
