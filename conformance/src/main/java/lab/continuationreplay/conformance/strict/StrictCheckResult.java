package lab.continuationreplay.conformance.strict;

import java.util.List;

/** One check's outcome, its reason in a line, and every request it sent. */
public record StrictCheckResult(StrictCheckId check, StrictOutcome outcome, String reason, List<Probe> probes) {
    public StrictCheckResult {
        probes = List.copyOf(probes);
    }

    static StrictCheckResult notRun(StrictCheckId check, String why) {
        return new StrictCheckResult(check, StrictOutcome.NOT_RUN, why, List.of());
    }

    /** The line printed for this check: outcome, name, reason. */
    public String line() {
        return String.format("%-8s %-28s %s", outcome.word(), check.id(), reason);
    }
}
