package lab.continuationreplay.cases.frozen;

import static lab.continuationreplay.cases.Observation.Kind.*;

import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;

/** §9.3: round one only, then the process ends; a status read-back finds nothing and the consumer stops. */
public final class Case02NeverAdmitted {
    private static final CaseId ID = CaseId.NEVER_ADMITTED;

    public static final CaseSpec SPEC = CaseSpec.of(ID)
            .effect(CaseSpec.Effect.NONE)
            .rule(CaseSpec.WireRule.NEVER_CONTINUES)
            .observe("status", Observation.of(RECONCILED))
            .observe("consumer_action", Observation.of(CONSUMER_ACTION))
            .frozen("{\"consumer_action\":\"stop\",\"effects\":0,\"status\":\"unknown\"}", Case02NeverAdmitted::run);

    private Case02NeverAdmitted() {}

    static void run(CaseSteps c) throws Exception {
        CaseServer server = c.spawn("server", ServerSetup.alice());
        server.roundOne(CaseArguments.atomic(ID));
        c.close(server);
        c.spawn("readback", ServerSetup.alice()).status(ID.operationId());
    }
}
