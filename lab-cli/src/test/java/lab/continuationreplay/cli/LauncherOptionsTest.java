package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.continuationreplay.core.MatrixAsProcess;
import org.junit.jupiter.api.Test;

/**
 * The tests start {@code lab} as the launcher does: the commands it gives the short-lived JVM options, and those
 * options, are the ones {@link LabProcess} and {@link MatrixAsProcess} use.
 */
class LauncherOptionsTest {
    /** {@code ./lab} (bash, an array) and the runner image's entrypoint (sh, a word list) hold the same two lists. */
    @Test
    void theLaunchersGiveTheShortLivedOptionsToTheCommandsTheTestsDo() throws Exception {
        for (String path : List.of("lab", "containers/runner/lab-entrypoint.sh")) {
            String launcher = Files.readString(LabProcess.home().resolve(path));
            Matcher full = Pattern.compile("(?m)^\\s*([a-z|]+)\\) short_lived=(\\(\\)|\"\") ;;$").matcher(launcher);
            assertEquals(true, full.find(), path + ": the case line for the commands with full tiering");
            assertEquals(LabProcess.LONG_LIVED, Set.of(full.group(1).split("\\|")), path);
            Matcher others = Pattern.compile("(?m)^\\s*\\*\\) short_lived=[(\"]([^)\"]*)[)\"] ;;$").matcher(launcher);
            assertEquals(true, others.find(), path + ": the case line for every other command");
            assertEquals(MatrixAsProcess.LAB_JVM_OPTIONS, List.of(others.group(1).split(" ")), path);
        }
    }
}
