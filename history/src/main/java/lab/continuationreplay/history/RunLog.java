package lab.continuationreplay.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The runner's own account of an attempt, {@code history.jsonl}: one line per folder it filled (a case, a control),
 * written when the folder is complete, with the hash of every file in it, the machinery error that stopped the
 * script early, if one did, and how long the script took ({@code played_ms}). It holds no outcome and no verdict:
 * those are the checker's. A time is an observation of the run, like a transcript, so it belongs here; the checker
 * judges nothing by it.
 */
public final class RunLog {
    /**
     * One folder's line. {@code machineryError} is null when the script ran to its end; {@code playedMs} is null in a
     * history written before the runner recorded times.
     */
    public record Entry(String folder, Map<String, String> artifactHashes, String machineryError, Long playedMs) {
        public Entry {
            artifactHashes = Map.copyOf(artifactHashes);
        }

        public boolean ranToTheEnd() {
            return machineryError == null;
        }
    }

    private RunLog() {}

    /** Appends one folder's line to {@code log}; the hashes are of the folder as it is now. */
    public static Entry append(Path log, Path folder, String machineryError) throws IOException {
        return append(log, folder, machineryError, null);
    }

    /** As above, with the wall time the folder's script took (null: not measured). */
    public static Entry append(Path log, Path folder, String machineryError, java.time.Duration played) throws IOException {
        Entry entry = new Entry(folder.getFileName().toString(), ArtifactHashes.of(folder, log.getParent()), machineryError,
                played == null ? null : played.toMillis());
        ObjectNode line = Format.HISTORY.document();
        line.put("folder", entry.folder());
        line.set("artifact_hashes", ExactJson.mapper().valueToTree(new java.util.TreeMap<>(entry.artifactHashes())));
        if (machineryError != null) {
            line.put("machinery_error", machineryError);
        }
        if (entry.playedMs() != null) {
            line.put("played_ms", entry.playedMs());
        }
        synchronized (RunLog.class) {
            Files.writeString(log, CanonicalJson.canonical(line) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        }
        return entry;
    }

    /**
     * Every line of {@code log}, by folder name, in the order written.
     *
     * @throws FormatException when the log is missing, a line is not a {@code history/1} record, or a folder appears twice
     */
    public static Map<String, Entry> read(Path log, String where) throws IOException, FormatException {
        if (!Files.exists(log)) {
            throw new FormatException(where + " is missing: the run left no history (a lab before format \""
                    + Format.HISTORY.tag() + "\" wrote none; re-run " + Format.HISTORY.writtenBy() + ")");
        }
        Map<String, Entry> entries = new LinkedHashMap<>();
        List<String> lines = new ArrayList<>(Files.readAllLines(log, StandardCharsets.UTF_8));
        for (int i = 0; i < lines.size(); i++) {
            ObjectNode line = Format.HISTORY.read(lines.get(i), where + ": line " + (i + 1));
            String folder = line.path("folder").textValue();
            JsonNode hashes = line.path("artifact_hashes");
            if (folder == null || !hashes.isObject()) {
                throw new FormatException(where + ": line " + (i + 1) + " has no \"folder\" or no \"artifact_hashes\"");
            }
            Map<String, String> map = new LinkedHashMap<>();
            hashes.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
            JsonNode error = line.get("machinery_error");
            JsonNode played = line.get("played_ms");
            Long playedMs = played != null && played.canConvertToLong() && played.asLong() >= 0 ? played.asLong() : null;
            if (entries.put(folder, new Entry(folder, map, error == null || error.isNull() ? null : error.asText(), playedMs)) != null) {
                throw new FormatException(where + ": folder " + folder + " appears twice");
            }
        }
        return entries;
    }
}
