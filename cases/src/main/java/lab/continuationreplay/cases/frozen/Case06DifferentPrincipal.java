package lab.continuationreplay.cases.frozen;

import static lab.continuationreplay.cases.Observation.Kind.*;

import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;

/**
 * §9.7: bob presents alice's state (the SDK refuses it), then his own state for alice's operation id (the ledger
 * refuses it); bob's status read-back must not pass as alice's.
 */
public final class Case06DifferentPrincipal {
    private static final CaseId ID = CaseId.DIFFERENT_PRINCIPAL;

    public static final CaseSpec SPEC = CaseSpec.of(ID)
            .minContinuations(2)
            .refusals(CaseSpec.Refusal.GUARD, CaseSpec.Refusal.STATE)
            .observe("sdk_principal_binding", Observation.of(MECHANISM, 1))
            .observe("ledger_binding", Observation.of(MECHANISM, 2))
            .observe("other_principal_status", Observation.of(STATUS_STATE))
            .observe("alice_identity_refused", Observation.of(IDENTITY_REFUSED))
            .frozen("{\"alice_identity_refused\":true,\"effects\":1,\"ledger_binding\":\"operation_conflict\","
                    + "\"other_principal_status\":\"unknown\",\"sdk_principal_binding\":\"request_state_rejected\"}",
                    Case06DifferentPrincipal::run);

    private Case06DifferentPrincipal() {}

    static void run(CaseSteps c) throws Exception {
        CaseServer alice = c.spawn("alice", ServerSetup.alice());
        String aliceToken = alice.roundOne(CaseArguments.atomic(ID));
        alice.commit(CaseArguments.atomic(ID), aliceToken, CaseSpec.BODY);
        c.close(alice);
        CaseServer bob = c.spawn("bob", ServerSetup.alice().as("bob"));
        bob.commit(CaseArguments.atomic(ID), aliceToken, CaseSpec.BODY);
        bob.commit(CaseArguments.atomic(ID), bob.roundOne(CaseArguments.atomic(ID)), CaseSpec.BODY);
        c.close(bob);
        c.spawn("bob-readback", ServerSetup.alice().as("bob")).status(ID.operationId());
    }
}
