package lab.continuationreplay.cases.frozen;

import static lab.continuationreplay.cases.Observation.Kind.*;

import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;

/** §9.6: a second valid state for the same operation is a conflict; a tampered state is refused by the SDK. */
public final class Case05ChangedRequestState {
    private static final CaseId ID = CaseId.CHANGED_REQUEST_STATE;

    public static final CaseSpec SPEC = CaseSpec.of(ID)
            .minContinuations(3)
            .refusals(CaseSpec.Refusal.GUARD, CaseSpec.Refusal.STATE)
            .observe("valid_changed_state", Observation.of(MECHANISM, 1))
            .observe("tampered_state", Observation.of(MECHANISM, 2))
            .frozen("{\"effects\":1,\"tampered_state\":\"request_state_rejected\",\"valid_changed_state\":\"operation_conflict\"}",
                    Case05ChangedRequestState::run);

    private Case05ChangedRequestState() {}

    static void run(CaseSteps c) throws Exception {
        CaseServer server = c.spawn("server", ServerSetup.alice());
        String first = server.roundOne(CaseArguments.atomic(ID));
        String second = server.roundOne(CaseArguments.atomic(ID));
        server.commit(CaseArguments.atomic(ID), first, CaseSpec.BODY);
        server.commit(CaseArguments.atomic(ID), second, CaseSpec.BODY);
        server.commit(CaseArguments.atomic(ID), tamper(second), CaseSpec.BODY);
    }

    /** The seed's tamper: the middle character becomes "A" (or "B" if it already is). */
    static String tamper(String token) {
        int middle = token.length() / 2;
        char replacement = token.charAt(middle) == 'A' ? 'B' : 'A';
        return token.substring(0, middle) + replacement + token.substring(middle + 1);
    }
}
