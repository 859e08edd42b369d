package lab.continuationreplay.conformance.suite;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.history.Judgement;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The scenarios an SDK itself cannot pass, from {@code conformance/expected-failures/<sdk>.json}. Each entry names the
 * reason, where in the SDK the cause lives, and the finding page whose reproduction runs on the SDK alone. At most
 * {@value #LIMIT} per SDK: a longer list would stop being a list of SDK limits and start hiding the lab's own gaps.
 */
public record ExpectedFailures(String sdk, List<Entry> entries) {
    public static final int LIMIT = 3;
    public static final String FOLDER = "conformance/expected-failures";

    public record Entry(Side side, String scenario, String reason, String sdkLocation, String finding) {}

    public ExpectedFailures {
        entries = List.copyOf(entries);
    }

    public static ExpectedFailures none(String sdk) {
        return new ExpectedFailures(sdk, List.of());
    }

    /** How {@code verdict} stands against this list. */
    public static Judgement judge(Verdict verdict, Optional<Entry> listed) {
        return Judgement.of(verdict == Verdict.PASSED, listed.isPresent());
    }

    public Optional<Entry> find(Side side, String scenario) {
        return entries.stream().filter(e -> e.side() == side && e.scenario().equals(scenario)).findFirst();
    }

    /** The SDK's file under {@code home}, checked against what the suite requires; no file means no expected failure. */
    public static ExpectedFailures read(Path home, String sdk, Requirements requirements) throws IOException {
        return read(home, home.resolve(FOLDER), sdk, requirements);
    }

    /** As {@link #read(Path, String, Requirements)}, from another folder (finding pages are still the home's). */
    public static ExpectedFailures read(Path home, Path folder, String sdk, Requirements requirements) throws IOException {
        Path file = folder.resolve(sdk + ".json");
        if (!Files.exists(file)) {
            return none(sdk);
        }
        Path shown = file.toAbsolutePath().normalize();
        Path root = home.toAbsolutePath().normalize();
        String where = shown.startsWith(root) ? root.relativize(shown).toString() : shown.toString();
        JsonNode document;
        try {
            document = Format.EXPECTED_FAILURES.read(Files.readString(file), where);
        } catch (FormatException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (!sdk.equals(document.path("sdk").asText())) {
            throw new IllegalArgumentException(where + ": \"sdk\" must be \"" + sdk + "\"");
        }
        JsonNode list = document.path("entries");
        if (!list.isArray()) {
            throw new IllegalArgumentException(where + ": \"entries\" must be an array");
        }
        if (list.size() > LIMIT) {
            throw new IllegalArgumentException(where + ": " + list.size() + " expected failures; at most " + LIMIT + " per SDK");
        }
        List<Entry> entries = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode entry = list.get(i);
            String at = where + ": entry " + (i + 1);
            Side side;
            try {
                side = Side.fromLabel(text(entry, "side", at));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(at + ": " + e.getMessage());
            }
            String scenario = text(entry, "scenario", at);
            if (!requirements.isScored(side, scenario)) {
                throw new IllegalArgumentException(at + ": " + scenario + " is not a scored " + side.label() + " scenario of "
                        + requirements.revision());
            }
            if (!seen.add(side.label() + " " + scenario)) {
                throw new IllegalArgumentException(at + ": " + scenario + " is listed twice");
            }
            String finding = text(entry, "finding", at);
            Judgement.requireFinding(home, finding, at);
            entries.add(new Entry(side, scenario, text(entry, "reason", at), text(entry, "sdk_location", at), finding));
        }
        return new ExpectedFailures(sdk, entries);
    }

    private static String text(JsonNode entry, String member, String at) {
        JsonNode value = entry.path(member);
        if (!value.isTextual() || value.asText().isBlank()) {
            throw new IllegalArgumentException(at + ": \"" + member + "\" must be a non-empty string");
        }
        return value.asText();
    }
}
