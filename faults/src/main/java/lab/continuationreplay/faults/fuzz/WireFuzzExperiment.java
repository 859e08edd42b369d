package lab.continuationreplay.faults.fuzz;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import lab.continuationreplay.faults.ExperimentReport;
import lab.continuationreplay.faults.FaultExperiment;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Wire fuzzing: thousands of mutated requests, built from valid round ones, continuations, status calls,
 * {@code server/discover} and {@code tools/list}, against one long-lived server per SDK. Every request is answered
 * with its id (or, if malformed, answered without one or ignored), no invalid request has an effect, and the server
 * still serves at the end.
 */
public final class WireFuzzExperiment implements FaultExperiment {
    public static final String NAME = "wire-fuzz";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "mutated requests on one long-lived server: every request answered or legitimately ignored, no effect, still serving";
    }

    @Override
    public ExperimentReport run(FaultSession session) throws Exception {
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        for (ServerKind sdk : session.sdks()) {
            WireFuzzRun run = new WireFuzzRun(session, sdk, session.folder(NAME, sdk.label()), session.random(NAME + "/" + sdk.label()));
            figures.set(sdk.label(), run.fuzz(session.size(1000, 10_000)));
        }
        return new ExperimentReport(NAME, title(), true, figures, List.of(), 0);
    }
}
