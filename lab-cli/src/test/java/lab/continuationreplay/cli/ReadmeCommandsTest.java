package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every command the README names is run end to end by an IT, in its quick or smallest form: a README line that no
 * test runs could stop working unnoticed. This test reads the README and the ITs' sources and names, for each
 * command and matrix option, the IT that runs it (the IT's own assertions judge the run).
 */
class ReadmeCommandsTest {
    private static final Pattern COMMAND = Pattern.compile("^- \\[`lab ([a-z-]+)[^`]*`\\]\\(docs/[a-z-]+\\.md\\)", Pattern.MULTILINE);
    private static final Pattern MATRIX_OPTION = Pattern.compile("`(--transport http|--ledger postgres|--in-container)`");

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Each IT's source by its file name. */
    private static Map<String, String> integrationTests() throws IOException {
        Map<String, String> sources = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(LabProcess.home().resolve("lab-cli/src/test/java"))) {
            files.filter(f -> f.getFileName().toString().endsWith("IT.java")).sorted()
                    .forEach(f -> sources.put(f.getFileName().toString(), read(f)));
        }
        return sources;
    }

    /** How an IT runs {@code command}: through {@link LabProcess} with the command first, or the launcher for doctor. */
    private static Pattern runs(String command, String option) {
        String args = option == null ? "" : "[^;]*\"" + option.replace(" ", "\",\\s*\"") + "\"";
        if (command.equals("doctor")) {
            return Pattern.compile("run\\(launcher\\(\\),[^;]*\"doctor\"");
        }
        return Pattern.compile("LabProcess\\.run\\(List\\.of\\(\"" + command + "\"" + args, Pattern.DOTALL);
    }

    @Test
    void everyCommandAndMatrixOptionTheReadmeNamesIsRunByAnIntegrationTest() throws IOException {
        String readme = read(LabProcess.home().resolve("README.md"));
        Map<String, String> its = integrationTests();
        List<String> commands = new ArrayList<>(List.of("matrix"));
        Matcher command = COMMAND.matcher(readme);
        while (command.find()) {
            commands.add(command.group(1));
        }
        assertTrue(commands.size() >= 15, "the README's command list was not found: " + commands);
        List<String> options = new ArrayList<>();
        Matcher option = MATRIX_OPTION.matcher(readme);
        while (option.find()) {
            options.add(option.group(1));
        }
        assertEquals(List.of("--transport http", "--ledger postgres", "--in-container"), options, "the matrix options the README names");
        List<String> unrun = new ArrayList<>();
        Map<String, String> runBy = new LinkedHashMap<>();
        for (String name : commands) {
            findRunner(its, runs(name, null)).ifPresentOrElse(it -> runBy.put("lab " + name, it), () -> unrun.add("lab " + name));
        }
        for (String name : options) {
            findRunner(its, runs("matrix", name)).ifPresentOrElse(it -> runBy.put("lab matrix " + name, it), () -> unrun.add("lab matrix " + name));
        }
        assertEquals(List.of(), unrun, "README commands no IT runs; runs found: " + runBy);
    }

    private static java.util.Optional<String> findRunner(Map<String, String> its, Pattern how) {
        return its.entrySet().stream().filter(e -> how.matcher(e.getValue()).find()).map(Map.Entry::getKey).findFirst();
    }

    @Test
    void theCheckFindsARunAndMissesACommandNoTestRuns() {
        Map<String, String> its = Map.of("AIT.java", "LabProcess.run(List.of(\"matrix\", \"--sdk\", \"go\",\n \"--ledger\", \"postgres\"), Map.of(), \"\");",
                "BIT.java", "Run all = run(launcher(), path, \"doctor\");");
        assertEquals(java.util.Optional.of("AIT.java"), findRunner(its, runs("matrix", "--ledger postgres")));
        assertEquals(java.util.Optional.of("BIT.java"), findRunner(its, runs("doctor", null)));
        assertEquals(java.util.Optional.empty(), findRunner(its, runs("matrix", "--in-container")));
        assertEquals(java.util.Optional.empty(), findRunner(its, runs("bench", null)));
    }
}
