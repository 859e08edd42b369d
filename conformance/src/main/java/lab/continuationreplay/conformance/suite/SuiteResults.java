package lab.continuationreplay.conformance.suite;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Reads what the suite wrote with {@code -o DIR}: one folder per scenario and UTC time, each
 * with a {@code checks.json} array of {@code {id, status, errorMessage?, ...}}. A scenario fails if any check has
 * status {@code FAILURE}, which is how the suite itself counts; warnings are kept but do not fail it.
 */
public final class SuiteResults {
    private static final String TIME = "-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z";
    /** Server runs write {@code server-<scenario>-<time>}; client runs only {@code <scenario>-<time>}. */
    private static final Pattern SERVER_FOLDER = Pattern.compile("server-(.+)" + TIME);
    private static final Pattern CLIENT_FOLDER = Pattern.compile("(.+)" + TIME);
    /** Enough of each failed check's message to say what went wrong; the whole is in the suite's own file. */
    private static final int MESSAGE_LIMIT = 300;

    private SuiteResults() {}

    /** Every scenario of {@code side} found under {@code dir}, by name; a scenario run twice keeps its later run. */
    public static Map<String, ScenarioOutcome> read(Path dir, Side side) throws IOException {
        Map<String, Path> latest = new TreeMap<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> folders = Files.list(dir)) {
                for (Path folder : folders.sorted().toList()) {
                    Matcher name = (side == Side.SERVER ? SERVER_FOLDER : CLIENT_FOLDER).matcher(folder.getFileName().toString());
                    if (Files.isDirectory(folder) && name.matches()) {
                        latest.put(name.group(1), folder);
                    }
                }
            }
        }
        Map<String, ScenarioOutcome> outcomes = new LinkedHashMap<>();
        for (Map.Entry<String, Path> entry : latest.entrySet()) {
            outcomes.put(entry.getKey(), outcome(entry.getKey(), side, dir, entry.getValue()));
        }
        return outcomes;
    }

    static ScenarioOutcome outcome(String scenario, Side side, Path dir, Path folder) throws IOException {
        Path file = folder.resolve("checks.json");
        String where = dir.relativize(file).toString();
        if (!Files.isRegularFile(file)) {
            return ScenarioOutcome.notRun(scenario, side, where + " is missing");
        }
        JsonNode checks;
        try {
            checks = ExactJson.parse(Files.readString(file));
        } catch (IOException | RuntimeException e) {
            return ScenarioOutcome.notRun(scenario, side, where + " is not JSON: " + e.getMessage());
        }
        if (!checks.isArray()) {
            return ScenarioOutcome.notRun(scenario, side, where + " is not a JSON array of checks");
        }
        int passed = 0;
        int failed = 0;
        int warnings = 0;
        List<String> failures = new ArrayList<>();
        for (JsonNode check : checks) {
            switch (check.path("status").asText()) {
                case "SUCCESS" -> passed++;
                case "FAILURE" -> {
                    failed++;
                    String message = check.path("errorMessage").asText(check.path("description").asText(""));
                    failures.add(check.path("id").asText("?") + ": " + shorten(message));
                }
                case "WARNING" -> warnings++;
                default -> {
                    // INFO and SKIPPED neither pass nor fail a scenario
                }
            }
        }
        return new ScenarioOutcome(scenario, side, failed == 0 ? Verdict.PASSED : Verdict.FAILED, passed, failed, warnings, failures,
                dir.relativize(folder).toString());
    }

    private static String shorten(String message) {
        String oneLine = message.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= MESSAGE_LIMIT ? oneLine : oneLine.substring(0, MESSAGE_LIMIT) + "…";
    }
}
