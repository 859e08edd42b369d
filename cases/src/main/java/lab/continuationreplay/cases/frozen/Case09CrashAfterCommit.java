package lab.continuationreplay.cases.frozen;

import static lab.continuationreplay.cases.Observation.Kind.*;

import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;
import lab.continuationreplay.cases.ServerChoice;

/**
 * §9.10: the commit's reply is lost (exit 70); after a restart, only a status read-back: applied, the stored result,
 * and the write is not sent again. {@link #acrossSdks} is the same case with the restart on another SDK's server.
 */
public final class Case09CrashAfterCommit {
    private static final CaseId ID = CaseId.CRASH_AFTER_COMMIT;

    public static final CaseSpec SPEC = CaseSpec.of(ID)
            .minContinuations(1)
            .lostReplyOn("crash")
            .observe("redispatched", Observation.of(REDISPATCHED))
            .frozen("{\"consumer_action\":\"return_stored_result\",\"crash_exit\":70,\"effects\":1,"
                    + "\"reconciled\":\"applied\",\"redispatched\":false,\"transport\":\"unknown\"}",
                    c -> run(c, ServerChoice.UNDER_TEST, ServerChoice.UNDER_TEST));

    private Case09CrashAfterCommit() {}

    /** The cross-SDK cell: the commit on {@code crashOn}'s server, the recovery through {@code recoverOn}'s. */
    public static CaseSpec acrossSdks(ServerChoice crashOn, ServerChoice recoverOn) {
        return new CaseSpec(ID, SPEC.effect(), SPEC.minContinuations(), SPEC.refusals(), SPEC.wireRules(), SPEC.exitStatuses(),
                SPEC.steps(), SPEC.outcome(), SPEC.frozenOutcome(), c -> run(c, crashOn, recoverOn));
    }

    static void run(CaseSteps c, ServerChoice crashOn, ServerChoice recoverOn) throws Exception {
        CaseServer crash = c.spawn("crash", ServerSetup.alice().with(ServerSetup.Fault.DROP_AFTER_COMMIT), crashOn);
        String token = crash.roundOne(CaseArguments.atomic(ID));
        crash.commitLosingReply(CaseArguments.atomic(ID), token, CaseSpec.BODY);
        c.spawn("restart", ServerSetup.alice(), recoverOn).status(ID.operationId());
    }
}
