package lab.continuationreplay.store.stdio;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireStdoutTest {
    @Test
    void aCommandLineCarriesTheOptionsOnlyWhenItHasEveryOne() {
        List<String> full = new ArrayList<>(List.of("java"));
        full.addAll(WireStdout.JVM_OPTIONS);
        full.addAll(List.of("-jar", "server.jar"));
        assertTrue(WireStdout.launchedWith(full));
        for (String missing : WireStdout.JVM_OPTIONS) {
            List<String> without = new ArrayList<>(full);
            without.remove(missing);
            assertFalse(WireStdout.launchedWith(without), "without " + missing);
        }
        assertFalse(WireStdout.launchedWith(List.of("java", "-jar", "server.jar")));
    }
}
