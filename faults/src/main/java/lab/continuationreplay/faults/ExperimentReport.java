package lab.continuationreplay.faults;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What one experiment found over one transport. {@code figures} is free-form JSON; when its members are objects (one
 * per SDK or per scope, e.g. {@code {"java": {...}, "typescript": {...}}}) the table shows one row per member.
 * {@code findings} are violated invariants (they fail the run); {@code observations} are what the servers did that is
 * worth knowing but breaks no invariant (a difference between the SDKs' answers, say).
 */
public record ExperimentReport(String name, String title, boolean passed, ObjectNode figures, List<String> findings,
        List<String> observations, String transport, long millis) {
    public ExperimentReport {
        findings = List.copyOf(findings);
        observations = List.copyOf(observations);
    }

    /** A stdio report without observations. */
    public ExperimentReport(String name, String title, boolean passed, ObjectNode figures, List<String> findings, long millis) {
        this(name, title, passed, figures, findings, List.of(), "stdio", millis);
    }

    public ExperimentReport withMillis(long elapsed) {
        return new ExperimentReport(name, title, passed, figures, findings, observations, transport, elapsed);
    }

    /** The same report labelled with the transport (or transports) it ran over. */
    public ExperimentReport over(String transportLabel) {
        return new ExperimentReport(name, title, passed, figures, findings, observations, transportLabel, millis);
    }

    public ExperimentReport withObservations(List<String> notes) {
        return new ExperimentReport(name, title, passed, figures, findings, notes, transport, millis);
    }
}
