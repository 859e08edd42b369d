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
 * §9.11: after replay retention expires the ledger keeps a tombstone: the old state is refused, a fresh state for
 * the same id conflicts, and once the state itself expires the SDK refuses it.
 */
public final class Case10RetentionExpiry {
    private static final CaseId ID = CaseId.RETENTION_EXPIRY;

    public static final CaseSpec SPEC = CaseSpec.of(ID)
            .minContinuations(4)
            .refusals(CaseSpec.Refusal.GUARD, CaseSpec.Refusal.STATE)
            .observe("application_expiry", Observation.of(MECHANISM, 1))
            .observe("fresh_issuance", Observation.of(MECHANISM, 2))
            .observe("sdk_expiry", Observation.of(MECHANISM, 3))
            .observe("operations", Observation.of(OPERATION_ROWS))
            .frozen("{\"application_expiry\":\"operation_retention_expired\",\"effects\":1,"
                    + "\"fresh_issuance\":\"operation_conflict\",\"operations\":1,\"sdk_expiry\":\"request_state_rejected\"}",
                    Case10RetentionExpiry::run);

    private Case10RetentionExpiry() {}

    static void run(CaseSteps c) throws Exception {
        ServerSetup setup = ServerSetup.alice().withTtls(360, 60, 600);
        CaseServer current = c.spawn("current", setup);
        String token = current.roundOne(CaseArguments.atomic(ID));
        current.commit(CaseArguments.atomic(ID), token, CaseSpec.BODY);
        c.close(current);
        CaseServer afterRetention = c.spawn("after-retention", setup.at(120));
        afterRetention.commit(CaseArguments.atomic(ID), token, CaseSpec.BODY);
        afterRetention.commit(CaseArguments.atomic(ID), afterRetention.roundOne(CaseArguments.atomic(ID)), CaseSpec.BODY);
        c.close(afterRetention);
        c.spawn("after-sdk-expiry", setup.at(660)).commit(CaseArguments.atomic(ID), token, CaseSpec.BODY);
    }
}
