package lab.continuationreplay.cases.frozen;

import static lab.continuationreplay.cases.Observation.Kind.*;

import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;

/** §9.12: a continuation without requestState is refused with no effect; the server still opens new operations. */
public final class Case11RequestStateStripped {
    private static final CaseId ID = CaseId.REQUEST_STATE_STRIPPED;
    /** The fresh operation after the refusal. */
    static final String FRESH = ID.operationId() + "-new";

    public static final CaseSpec SPEC = CaseSpec.of(ID)
            .effect(CaseSpec.Effect.NONE)
            .minContinuations(1)
            .refusals(CaseSpec.Refusal.GUARD)
            .rule(CaseSpec.WireRule.SENDS_STATELESS_CONTINUATION)
            .observe("mechanism", Observation.of(MECHANISM, 0))
            .observe("valid_initial_round", Observation.firstRound(FRESH))
            .frozen("{\"effects\":0,\"mechanism\":\"unsupported_continuation\",\"valid_initial_round\":\"input_required\"}",
                    Case11RequestStateStripped::run);

    private Case11RequestStateStripped() {}

    static void run(CaseSteps c) throws Exception {
        CaseServer server = c.spawn("server", ServerSetup.alice());
        server.roundOne(CaseArguments.atomic(ID));
        server.commit(CaseArguments.atomic(ID), null, CaseSpec.BODY);
        server.firstRound(CaseArguments.of(FRESH, ID.title() + "-new", "atomic"));
    }
}
