package lab.continuationreplay.cases.frozen;

import static lab.continuationreplay.cases.Observation.Kind.*;

import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;

/** §9.8: after the write authority expires, the replay is refused; a status read-back still returns the result. */
public final class Case07AuthorityExpires {
    private static final CaseId ID = CaseId.AUTHORITY_EXPIRES;

    public static final CaseSpec SPEC = CaseSpec.of(ID)
            .minContinuations(2)
            .refusals(CaseSpec.Refusal.GUARD)
            .observe("mechanism", Observation.of(MECHANISM, 1))
            .observe("readback", Observation.of(RECONCILED))
            .observe("consumer_action", Observation.of(CONSUMER_ACTION))
            .observe("fresh_write_authorized", Observation.of(FRESH_WRITE, 1))
            .frozen("{\"consumer_action\":\"return_stored_result\",\"effects\":1,\"fresh_write_authorized\":false,"
                    + "\"mechanism\":\"operation_authority_expired\",\"readback\":\"applied\"}", Case07AuthorityExpires::run);

    private Case07AuthorityExpires() {}

    static void run(CaseSteps c) throws Exception {
        ServerSetup setup = ServerSetup.alice().withTtls(60, 360, 600);
        CaseServer current = c.spawn("current", setup);
        String token = current.roundOne(CaseArguments.atomic(ID));
        current.commit(CaseArguments.atomic(ID), token, CaseSpec.BODY);
        c.close(current);
        CaseServer after = c.spawn("after-authority-expiry", setup.at(120));
        after.commit(CaseArguments.atomic(ID), token, CaseSpec.BODY);
        after.status(ID.operationId());
    }
}
