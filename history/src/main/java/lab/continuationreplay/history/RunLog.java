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
 * written when the folder is complete, with the hash of every file in it and the machinery error that stopped the
 * script early, if one did. It holds no outcome and no verdict: those are the checker's.
 */
public final class RunLog {
    /** One folder's line. {@code machineryError} is null when the script ran to its end. */
    public record Entry(String folder, Map<String, String> artifactHashes, String machineryError) {
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
        Entry entry = new Entry(folder.getFileName().toString(), ArtifactHashes.of(folder, log.getParent()), machineryError);
        ObjectNode line = Format.HISTORY.document();
        line.put("folder", entry.folder());
        line.set("artifact_hashes", ExactJson.mapper().valueToTree(new java.util.TreeMap<>(entry.artifactHashes())));
        if (machineryError != null) {
            line.put("machinery_error", machineryError);
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
            if (entries.put(folder, new Entry(folder, map, error == null || error.isNull() ? null : error.asText())) != null) {
                throw new FormatException(where + ": folder " + folder + " appears twice");
            }
        }
        return entries;
    }
}
