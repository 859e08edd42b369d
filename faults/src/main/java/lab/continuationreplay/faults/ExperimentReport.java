package lab.continuationreplay.faults;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What one experiment found. {@code figures} is free-form JSON; when its members are objects (one per SDK or per
 * scope, e.g. {@code {"java": {...}, "typescript": {...}}}) the table shows one row per member.
 */
public record ExperimentReport(String name, String title, boolean passed, ObjectNode figures, List<String> findings,
        long millis) {
    public ExperimentReport {
        findings = List.copyOf(findings);
    }

    public ExperimentReport withMillis(long elapsed) {
        return new ExperimentReport(name, title, passed, figures, findings, elapsed);
    }
}
