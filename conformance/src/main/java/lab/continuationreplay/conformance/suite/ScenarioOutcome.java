package lab.continuationreplay.conformance.suite;

import java.util.List;

/**
 * One scenario's result for one server or client, read from the suite's {@code checks.json}: how many checks passed,
 * failed and warned, and the failed checks' ids and messages.
 */
public record ScenarioOutcome(String scenario, Side side, Verdict verdict, int passed, int failed, int warnings, List<String> failures,
        String folder) {
    public ScenarioOutcome {
        failures = List.copyOf(failures);
    }

    public static ScenarioOutcome notRun(String scenario, Side side, String why) {
        return new ScenarioOutcome(scenario, side, Verdict.NOT_RUN, 0, 0, 0, List.of(why), null);
    }
}
