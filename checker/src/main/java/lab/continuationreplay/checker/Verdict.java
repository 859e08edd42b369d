package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The checker's verdict on one attempt folder (an SDK's cases, a cross-SDK cell) or on the controls: how many were
 * asked for, how many the history holds, how many pass, every problem found, and the records derived.
 */
public record Verdict(String name, int requested, int executed, int passed, List<String> problems, List<JsonNode> records) {
    public Verdict {
        problems = List.copyOf(problems);
        records = List.copyOf(records);
    }

    /** Records that failed exactly as an expected failure lists (client cells only): not a problem, not a pass. */
    public int expectedFailures() {
        return (int) records.stream()
                .filter(r -> CaseRecord.Status.EXPECTED_FAILURE.wire().equals(r.path("status").asText())).count();
    }

    public boolean ok() {
        return problems.isEmpty() && passed + expectedFailures() == requested;
    }

    static Verdict refused(String name, int requested, List<String> problems) {
        return new Verdict(name, requested, 0, 0, problems, List.of());
    }
}
