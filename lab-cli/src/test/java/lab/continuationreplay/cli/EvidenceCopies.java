package lab.continuationreplay.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import lab.continuationreplay.history.ArtifactHashes;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

/** What the forgery tests do to a copy of a run: copy it, and make its history agree with a changed folder again. */
public final class EvidenceCopies {
    private EvidenceCopies() {}

    public static void copyTree(Path from, Path to) throws Exception {
        try (var files = Files.walk(from)) {
            for (Path source : files.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }

    /** Gives {@code folder}'s line in {@code dir}'s history.jsonl the hashes of the folder as it is now. */
    public static void rehash(Path dir, String folder) throws Exception {
        Path log = dir.resolve(Layout.HISTORY);
        List<String> lines = new ArrayList<>(Files.readAllLines(log));
        boolean found = false;
        for (int i = 0; i < lines.size(); i++) {
            ObjectNode line = (ObjectNode) ExactJson.parse(lines.get(i));
            if (folder.equals(line.path("folder").asText())) {
                line.set("artifact_hashes", ExactJson.mapper().valueToTree(new TreeMap<>(ArtifactHashes.of(dir.resolve(folder), dir))));
                lines.set(i, CanonicalJson.canonical(line));
                found = true;
            }
        }
        if (!found) {
            throw new IllegalArgumentException(log + " has no line for " + folder);
        }
        Files.write(log, lines);
    }
}
