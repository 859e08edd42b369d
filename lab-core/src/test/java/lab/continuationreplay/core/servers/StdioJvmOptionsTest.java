package lab.continuationreplay.core.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.store.stdio.WireStdout;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;

/**
 * One rule, several launchers: every JVM the lab starts keeps the JVM's logging off stdout with the options of the
 * shared table {@code vectors/rules/stdio-jvm-options.json} (the TypeScript bridge launcher has its own test).
 */
class StdioJvmOptionsTest {
    private static final Path HOME = LabHome.resolve();

    private static List<String> table() throws Exception {
        return table("stdio-jvm-options.json");
    }

    private static List<String> table(String name) throws Exception {
        JsonNode rule = ExactJson.parse(Files.readString(HOME.resolve("vectors/rules").resolve(name)));
        List<String> options = new ArrayList<>();
        rule.path("options").forEach(o -> options.add(o.textValue()));
        return options;
    }

    @Test
    void theJavaConstantIsTheTable() throws Exception {
        assertEquals(table(), WireStdout.JVM_OPTIONS);
    }

    /** The fixtures start their bridge with these when the lab gives no command: one table for the four languages. */
    @Test
    void aCasesJvmHasTheOptionsOfTheCaseTable() throws Exception {
        assertEquals(table("case-jvm-options.json"), JvmLifetime.SHORT.options());
    }

    @Test
    void everyCommandLineTheLabBuildsStartsWithTheOptions() throws Exception {
        List<String> command = JavaCommand.of(List.of("-Xmx64m"), "-jar", "x.jar");
        assertEquals(table(), command.subList(1, 1 + table().size()));
        assertEquals(List.of("-Xmx64m", "-jar", "x.jar"), command.subList(1 + table().size(), command.size()));
    }

    @Test
    void theShellLaunchersPassTheOptionsBeforeAnythingAUserAdds() throws Exception {
        String joined = String.join(" ", table());
        for (String launcher : List.of("lab", "containers/runner/lab-entrypoint.sh")) {
            String script = Files.readString(HOME.resolve(launcher));
            assertTrue(script.contains(joined + " ${LAB_JAVA_OPTS:-}"), launcher + " must start java with " + joined);
        }
    }
}
