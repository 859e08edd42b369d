package lab.continuationreplay.cases.frozen;

import static lab.continuationreplay.cases.Observation.Kind.*;

import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;
import java.util.List;

/**
 * §9.13: a partial write whose watcher and compensation both fail stays durable as {@code partial}; the replay
 * returns that, never a first-effect result, and the consumer stops.
 */
public final class Case12PartialEffect {
    private static final CaseId ID = CaseId.PARTIAL_EFFECT;

    public static final CaseSpec SPEC = CaseSpec.of(ID)
            .effect(CaseSpec.Effect.PARTIAL)
            .minContinuations(2)
            .steps(new CaseSpec.StepRows(List.of("watcher/attempted/null", "watcher/failed/SyntheticWatcherFailure",
                    "rollback_issue/attempted/null", "rollback_issue/failed/SyntheticCompensationFailure"),
                    "failed:SyntheticCompensationFailure"))
            .observe("replayed_flags", Observation.of(REPLAYED_FLAGS))
            .observe("state", Observation.of(CONTINUATION_STATE, 0))
            .observe("readback", Observation.of(RECONCILED))
            .observe("consumer_action", Observation.of(CONSUMER_ACTION))
            .observe("watchers", Observation.of(WATCHER_ROWS))
            .observe("failed_compensations", Observation.of(FAILED_COMPENSATIONS))
            .observe("step_events", Observation.of(STEP_EVENTS))
            .frozen("{\"consumer_action\":\"stop\",\"effects\":1,\"failed_compensations\":1,\"readback\":\"partial\","
                    + "\"replayed_flags\":[false,true],\"state\":\"partial\",\"step_events\":4,\"watchers\":0}",
                    Case12PartialEffect::run);

    private Case12PartialEffect() {}

    static void run(CaseSteps c) throws Exception {
        CaseServer server = c.spawn("server", ServerSetup.alice());
        String token = server.roundOne(CaseArguments.partial(ID));
        server.commit(CaseArguments.partial(ID), token, CaseSpec.BODY);
        server.commit(CaseArguments.partial(ID), token, CaseSpec.BODY);
        c.close(server);
        c.spawn("readback", ServerSetup.alice()).status(ID.operationId());
    }
}
