package lab.continuationreplay.cases.frozen;

import static lab.continuationreplay.cases.Observation.Kind.*;

import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;

/** §9.4: the commit's reply is lost (exit 70); after a restart, status says applied and the same state replays. */
public final class Case03LostReplyThenExplicitReplay {
    private static final CaseId ID = CaseId.LOST_REPLY_THEN_EXPLICIT_REPLAY;

    public static final CaseSpec SPEC = CaseSpec.of(ID)
            .minContinuations(1)
            .lostReplyOn("crash")
            .observe("explicit_replay", Observation.of(EXPLICIT_REPLAY, 1))
            .frozen("{\"consumer_action\":\"return_stored_result\",\"crash_exit\":70,\"effects\":1,"
                    + "\"explicit_replay\":\"replayed\",\"reconciled\":\"applied\",\"transport\":\"unknown\"}",
                    Case03LostReplyThenExplicitReplay::run);

    private Case03LostReplyThenExplicitReplay() {}

    static void run(CaseSteps c) throws Exception {
        CaseServer crash = c.spawn("crash", ServerSetup.alice().with(ServerSetup.Fault.DROP_AFTER_COMMIT));
        String token = crash.roundOne(CaseArguments.atomic(ID));
        crash.commitLosingReply(CaseArguments.atomic(ID), token, CaseSpec.BODY);
        CaseServer restart = c.spawn("restart", ServerSetup.alice());
        restart.status(ID.operationId());
        restart.commit(CaseArguments.atomic(ID), token, CaseSpec.BODY);
    }
}
