package lab.continuationreplay.checker.faults;

import java.io.IOException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.history.FaultEvent;
import lab.continuationreplay.history.FaultEvent.Kind;
import lab.continuationreplay.history.FaultHistory;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.FormatException;

/**
 * The faults checker: every verdict of a fault run derived from its history alone ({@link FaultHistory}) and the
 * rows of the ledgers it names, counted here. Per ledger: no duplicate, no lost effect, nothing from a refused
 * request, no row of an operation never sent; per refusal: a clear error; per expectation: the value the design
 * fixes. The experiments judge nothing of this themselves.
 */
public final class FaultsCheck {
    /** The member of each experiment in {@code faults.json} that holds the problems derived from the history. */
    public static final String PROBLEMS = "history_problems";

    private FaultsCheck() {}

    /**
     * {@code lab verify} on a fault run: the hashes, the verdicts derived again, and whether {@code faults.json} says
     * the same for every experiment. {@code ok} only if everything agrees and every experiment passed.
     */
    public record Verification(List<String> hashProblems, Map<String, List<String>> derived, List<String> disagreements,
            boolean allPassed) {
        public boolean ok() {
            return hashProblems.isEmpty() && disagreements.isEmpty() && allPassed;
        }
    }

    public static Verification verify(Path folder) throws IOException, FormatException, SQLException {
        List<String> hashes = FaultHistory.hashProblems(folder);
        Map<String, List<String>> derived = derive(folder);
        Path report = folder.resolve("faults.json");
        if (!Files.isRegularFile(report)) {
            throw new FormatException(folder + " holds a fault history but no faults.json");
        }
        ObjectNode json = Format.FAULTS.read(Files.readString(report), "faults.json");
        List<String> disagreements = new ArrayList<>();
        boolean allPassed = json.path("passed").asBoolean(false);
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (JsonNode experiment : json.path("experiments")) {
            String unit = experiment.path("name").asText() + " (" + experiment.path("transport").asText() + ")";
            seen.add(unit);
            List<String> recorded = new ArrayList<>();
            experiment.path(PROBLEMS).forEach(p -> recorded.add(p.asText()));
            List<String> again = derived.getOrDefault(unit, List.of());
            if (!recorded.equals(again)) {
                disagreements.add(unit + ": faults.json says " + recorded + ", the history says " + again);
            }
            if (experiment.path("passed").asBoolean(false) && !again.isEmpty()) {
                disagreements.add(unit + ": faults.json says passed, the history shows " + again.size() + " problem(s)");
            }
            allPassed &= experiment.path("passed").asBoolean(false) && again.isEmpty();
        }
        derived.keySet().stream().filter(unit -> !seen.contains(unit))
                .forEach(unit -> disagreements.add(unit + ": in the history, not in faults.json"));
        return new Verification(hashes, derived, disagreements, allPassed);
    }

    /** Each unit of the run ({@code experiment (transport)}) in the order it first appears, with its problems. */
    public static Map<String, List<String>> derive(Path folder) throws IOException, FormatException, SQLException {
        List<FaultEvent> events = FaultHistory.read(folder);
        Map<String, List<String>> problems = new LinkedHashMap<>();
        Map<String, FaultEvent> ledgers = new LinkedHashMap<>();
        for (FaultEvent event : events) {
            List<String> unit = problems.computeIfAbsent(event.unit(), u -> new ArrayList<>());
            switch (event.kind()) {
                case LEDGER -> ledgers.putIfAbsent(event.unit() + "\n" + event.ledger(), event);
                case ANSWER -> {
                    String unclear = event.outcome() == FaultEvent.Outcome.REFUSED ? unclear(event.observed(), event.status()) : null;
                    if (unclear != null) {
                        unit.add(event.scope() + " " + event.operation() + ": " + unclear);
                    }
                }
                case EXPECT -> {
                    if (!event.expected().equals(event.observed())) {
                        unit.add(event.scope() + ": " + event.what() + ": " + event.observed() + ", expected " + event.expected());
                    }
                }
                case SENT, KILL, CUT -> { }
            }
        }
        for (FaultEvent ledger : ledgers.values()) {
            List<FaultEvent> about = events.stream()
                    .filter(e -> e.unit().equals(ledger.unit()) && ledger.ledger().equals(e.ledger()) && e.kind() != Kind.LEDGER)
                    .toList();
            LedgerFacts rows = LedgerFacts.read(FaultHistory.ledgerFile(folder, ledger.ledger()));
            rows.problems(about, ledger.what()).forEach(p -> problems.get(ledger.unit()).add(ledger.scope() + " " + ledger.ledger() + ": " + p));
        }
        return problems;
    }

    /**
     * Why a refusal is not a clear error, or null when it is: it must say something, on its own terms, not as a stack
     * trace, and over HTTP not as a server error (5xx other than 503 Service Unavailable).
     */
    static String unclear(String text, Integer status) {
        if (status != null && status >= 500 && status != 503) {
            return "refused with a server error (HTTP " + status + ", " + text + "): only 503 says the server is unavailable";
        }
        if (text == null || text.isBlank()) {
            return "refused without a message";
        }
        if (text.contains("\n\tat ") || text.contains("\n    at ") || text.startsWith("Exception in thread")) {
            return "refused with a stack trace: " + text.lines().findFirst().orElse("");
        }
        return null;
    }
}
