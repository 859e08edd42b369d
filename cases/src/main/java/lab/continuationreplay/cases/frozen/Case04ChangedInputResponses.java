package lab.continuationreplay.cases.frozen;

import static lab.continuationreplay.cases.Observation.Kind.*;

import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;

/** §9.5: the same state with a different input answer is a conflict, before any second effect. */
public final class Case04ChangedInputResponses {
    private static final CaseId ID = CaseId.CHANGED_INPUT_RESPONSES;

    public static final CaseSpec SPEC = CaseSpec.of(ID)
            .minContinuations(2)
            .refusals(CaseSpec.Refusal.GUARD)
            .observe("mechanism", Observation.of(MECHANISM, 1))
            .frozen("{\"effects\":1,\"mechanism\":\"operation_conflict\"}", Case04ChangedInputResponses::run);

    private Case04ChangedInputResponses() {}

    static void run(CaseSteps c) throws Exception {
        CaseServer server = c.spawn("server", ServerSetup.alice());
        String token = server.roundOne(CaseArguments.atomic(ID));
        server.commit(CaseArguments.atomic(ID), token, CaseSpec.BODY);
        server.commit(CaseArguments.atomic(ID), token, "beta");
    }
}
