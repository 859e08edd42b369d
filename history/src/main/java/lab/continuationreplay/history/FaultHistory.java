package lab.continuationreplay.history;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lab.continuationreplay.vectors.ExactJson;

/**
 * A fault run's history on disk: {@code fault-history.jsonl} (one {@link FaultEvent} per line, in the order they
 * happened) and {@code fault-hashes.json} (SHA-256 of that file and of every ledger it names, as the run left them).
 * The fault lab writes it; the faults checker and {@code lab verify} read it.
 */
public final class FaultHistory {
    public static final String FILE = "fault-history.jsonl";
    public static final String HASHES = "fault-hashes.json";

    private FaultHistory() {}

    /** Appends events to {@code folder/fault-history.jsonl}, one line each, from any thread. */
    public static final class Writer {
        private final Path file;

        public Writer(Path folder) {
            this.file = folder.resolve(FILE);
        }

        public synchronized void append(FaultEvent event) throws IOException {
            try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND)) {
                out.write(ExactJson.mapper().writeValueAsString(event.toJson()));
                out.write('\n');
            }
        }
    }

    /** True when {@code folder} holds a fault run's history. */
    public static boolean in(Path folder) {
        return Files.isRegularFile(folder.resolve(FILE));
    }

    public static List<FaultEvent> read(Path folder) throws IOException, FormatException {
        List<FaultEvent> events = new ArrayList<>();
        int number = 0;
        for (String line : Files.readAllLines(folder.resolve(FILE), StandardCharsets.UTF_8)) {
            number++;
            if (!line.isBlank()) {
                events.add(FaultEvent.parse(line, FILE + " line " + number));
            }
        }
        return events;
    }

    /**
     * The file that holds a ledger's rows: the SQLite file itself, or the {@code <name>.rows.json} a PostgreSQL
     * ledger left beside its key; the SQLite path when neither exists (a ledger never opened has no rows).
     */
    public static Path ledgerFile(Path folder, String ledger) {
        Path file = folder.resolve(ledger).normalize();
        if (!file.startsWith(folder.normalize())) {
            throw new IllegalArgumentException("ledger " + ledger + " lies outside the run's folder");
        }
        if (Files.exists(file)) {
            return file;
        }
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        Path dump = file.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + ".rows.json");
        return Files.exists(dump) ? dump : file;
    }

    /** SHA-256 of the history and of every ledger file it names (with SQLite's -wal beside it), by path. */
    public static Map<String, String> hashes(Path folder, List<FaultEvent> events) throws IOException {
        Map<String, String> hashes = new TreeMap<>();
        hashes.put(FILE, ArtifactHashes.sha256(folder.resolve(FILE)));
        for (FaultEvent event : events) {
            if (event.kind() != FaultEvent.Kind.LEDGER) {
                continue;
            }
            Path file = ledgerFile(folder, event.ledger());
            // not -shm, nor an empty -wal: a read-only reader of a WAL file makes both, and neither holds a row
            for (Path part : List.of(file, file.resolveSibling(file.getFileName() + "-wal"))) {
                if (Files.isRegularFile(part) && (part.equals(file) || Files.size(part) > 0)) {
                    hashes.put(folder.relativize(part).toString().replace('\\', '/'), ArtifactHashes.sha256(part));
                }
            }
        }
        return hashes;
    }

    /** Writes {@code fault-hashes.json} for the history as it stands. */
    public static void seal(Path folder) throws IOException, FormatException {
        ObjectNode json = Format.FAULT_HASHES.document();
        ObjectNode files = json.putObject("files");
        hashes(folder, read(folder)).forEach(files::put);
        Files.writeString(folder.resolve(HASHES), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n");
    }

    /** Every file whose hash differs from {@code fault-hashes.json}, is missing, or was added; empty when all agree. */
    public static List<String> hashProblems(Path folder) throws IOException, FormatException {
        if (!Files.isRegularFile(folder.resolve(HASHES))) {
            return List.of(HASHES + " is missing");
        }
        ObjectNode recorded = Format.FAULT_HASHES.read(Files.readString(folder.resolve(HASHES)), HASHES);
        Map<String, String> now = hashes(folder, read(folder));
        List<String> problems = new ArrayList<>();
        recorded.path("files").fields().forEachRemaining(entry -> {
            String actual = now.get(entry.getKey());
            if (actual == null) {
                problems.add(entry.getKey() + " is missing");
            } else if (!actual.equals(entry.getValue().asText())) {
                problems.add(entry.getKey() + " changed after the run (SHA-256 differs)");
            }
        });
        now.keySet().stream().filter(name -> !recorded.path("files").has(name))
                .forEach(name -> problems.add(name + " is not in " + HASHES));
        return problems;
    }
}
