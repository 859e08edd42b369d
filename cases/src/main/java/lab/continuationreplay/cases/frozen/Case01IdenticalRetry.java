package lab.continuationreplay.cases.frozen;

import static lab.continuationreplay.cases.Observation.Kind.*;

import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;

/** §9.2: the same continuation twice on one process; the second answers the stored result, replayed. */
public final class Case01IdenticalRetry {
    private static final CaseId ID = CaseId.IDENTICAL_RETRY;

    public static final CaseSpec SPEC = CaseSpec.of(ID)
            .minContinuations(2)
            .observe("replayed_flags", Observation.of(REPLAYED_FLAGS))
            .observe("same_result", Observation.of(SAME_RESULT))
            .observe("operations", Observation.of(OPERATION_ROWS))
            .frozen("{\"effects\":1,\"operations\":1,\"replayed_flags\":[false,true],\"same_result\":true}",
                    Case01IdenticalRetry::run);

    private Case01IdenticalRetry() {}

    static void run(CaseSteps c) throws Exception {
        CaseServer server = c.spawn("server", ServerSetup.alice());
        String token = server.roundOne(CaseArguments.atomic(ID));
        server.commit(CaseArguments.atomic(ID), token, CaseSpec.BODY);
        server.commit(CaseArguments.atomic(ID), token, CaseSpec.BODY);
    }
}
