package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.history.Layout;

/** Everything known about one case, read back from its folder only: wire, rows and how each process ended. */
public record CaseFacts(WireFacts wire, DbFacts db, List<ProcessExit> exits) {

    /** A process of the case and its exit status (null if it never ended, which is itself a finding). */
    public record ProcessExit(String name, Integer status) {}

    /**
     * Reads the case's facts from its folder.
     *
     * @throws FormatException when {@code processes.json} or a transcript is not one this lab reads
     */
    public static CaseFacts read(Path caseFolder) throws IOException, SQLException, FormatException {
        List<ProcessExit> exits = new ArrayList<>();
        String where = (caseFolder.getParent() == null ? "" : caseFolder.getParent().getFileName() + "/")
                + caseFolder.getFileName() + "/" + Layout.PROCESSES;
        Path file = caseFolder.resolve(Layout.PROCESSES);
        if (!Files.exists(file)) {
            throw new FormatException(where + " is missing");
        }
        JsonNode processes = Format.PROCESSES.read(Files.readString(file), where).path("processes");
        if (!processes.isArray()) {
            throw new FormatException(where + " has no \"processes\" array");
        }
        for (JsonNode process : processes) {
            JsonNode status = process.path("exit_status");
            exits.add(new ProcessExit(process.path("name").textValue(), status.isIntegralNumber() ? status.intValue() : null));
        }
        List<String> spawnOrder = exits.stream().map(ProcessExit::name).toList();
        return new CaseFacts(WireFacts.read(caseFolder, spawnOrder), DbFacts.read(Layout.ledgerEvidence(caseFolder)),
                List.copyOf(exits));
    }

    public int effects() {
        return db.issues().size();
    }
}
