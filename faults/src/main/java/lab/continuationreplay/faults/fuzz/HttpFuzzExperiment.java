package lab.continuationreplay.faults.fuzz;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.faults.ExperimentReport;
import lab.continuationreplay.faults.FaultExperiment;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.vectors.ExactJson;

/**
 * HTTP request fuzzing: bent headers, methods, paths, content types, chunking, lengths and bodies of round ones and
 * continuations, against one long-lived HTTP server per SDK. No refused request may have an effect, every answer
 * must be a well-formed HTTP response (no 5xx but 503), and the server must still serve afterwards. What each SDK
 * answers, class by class, is recorded; where the two differ, that is an observation.
 */
public final class HttpFuzzExperiment implements FaultExperiment {
    public static final String NAME = "http-fuzz";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "bent HTTP requests (headers, methods, paths, content types, chunking, lengths, bodies): no effect from a refused"
                + " request, no 5xx but 503, still serving";
    }

    @Override
    public Set<Transport> transports() {
        return Set.of(Transport.HTTP);
    }

    @Override
    public ExperimentReport run(FaultSession session) throws Exception {
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        Map<ServerKind, Map<String, Map<String, Integer>>> statuses = new LinkedHashMap<>();
        for (ServerKind sdk : session.sdks()) {
            HttpFuzzRun run = new HttpFuzzRun(session, sdk, session.folder(NAME, sdk.label()), session.random(NAME + "/" + sdk.label()));
            figures.set(sdk.label(), run.fuzz(session.size(300, 3000)));
            statuses.put(sdk, run.byClass());
        }
        return new ExperimentReport(NAME, title(), true, figures, List.of(), differences(statuses),
                Transport.HTTP.label(), 0);
    }

    /** One line per class whose answers differ between the SDKs (by the set of outcome labels, not the counts). */
    static List<String> differences(Map<ServerKind, Map<String, Map<String, Integer>>> statuses) {
        List<String> lines = new ArrayList<>();
        if (statuses.size() < 2) {
            return lines;
        }
        Set<String> classes = new TreeSet<>();
        statuses.values().forEach(m -> classes.addAll(m.keySet()));
        for (String kind : classes) {
            Map<ServerKind, Set<String>> labels = new LinkedHashMap<>();
            statuses.forEach((sdk, byClass) -> labels.put(sdk, new TreeSet<>(byClass.getOrDefault(kind, Map.of()).keySet())));
            if (labels.values().stream().distinct().count() > 1) {
                StringBuilder line = new StringBuilder(kind).append(": ");
                statuses.forEach((sdk, byClass) -> line.append(sdk.label()).append(' ').append(byClass.getOrDefault(kind, Map.of())).append("; "));
                lines.add(line.substring(0, line.length() - 2));
            }
        }
        return lines;
    }
}
