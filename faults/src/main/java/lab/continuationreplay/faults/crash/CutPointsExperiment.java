package lab.continuationreplay.faults.crash;

import lab.continuationreplay.faults.FaultRecorder;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.faults.ExperimentReport;
import lab.continuationreplay.faults.FaultExperiment;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.faults.common.FaultServers;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.readback.EffectState;
import lab.continuationreplay.store.recovery.RecoveryAction;
import lab.continuationreplay.store.recovery.RecoveryState;
import lab.continuationreplay.vectors.ExactJson;

/**
 * A hard exit at each of the four cut points, then recovery by status only. The consumer must end where the rows
 * are: nothing for 71/72, the stored result for 70, a durable first effect that stops it for 73; and a retry of
 * the same continuation afterwards must not add a second effect. Over HTTP also {@code close-after-commit}: the
 * connection closed without a response after the commit, the server still serving and settling it itself.
 */
public final class CutPointsExperiment implements FaultExperiment {
    private static final String STILL_SERVING = "still serving";

    /**
     * A lab fault, the mode it needs, its exit status (null: the server closes the connection and keeps serving), and
     * what the rows and the consumer must show afterwards.
     */
    private record Cut(String fault, String mode, Integer exitStatus, long issues, String operationState, EffectState effect,
            RecoveryAction action, String retry) {
        boolean keepsServing() {
            return exitStatus == null;
        }

        String operationId() {
            return "cut-" + (keepsServing() ? "close" : exitStatus);
        }
    }

    private static final List<Cut> CUTS = List.of(
            new Cut("drop-after-commit", "atomic", 70, 1, "applied", EffectState.APPLIED, RecoveryAction.RETURN_STORED_RESULT, "replayed"),
            new Cut("exit-after-ledger-insert", "atomic", 71, 0, null, EffectState.UNKNOWN, RecoveryAction.STOP, "created"),
            new Cut("exit-after-issue-insert", "atomic", 72, 0, null, EffectState.UNKNOWN, RecoveryAction.STOP, "created"),
            new Cut("exit-after-partial-first-commit", "partial", 73, 1, "in_progress", EffectState.UNKNOWN, RecoveryAction.STOP,
                    "operation_in_progress"));

    /** HTTP only: the commit, then the connection closed without a response; the same process settles and replays. */
    private static final Cut CLOSE_AFTER_COMMIT = new Cut("close-after-commit", "atomic", null, 1, "applied", EffectState.APPLIED,
            RecoveryAction.RETURN_STORED_RESULT, "replayed");

    static List<String> faults(Transport transport) {
        return cuts(transport).stream().map(Cut::fault).toList();
    }

    private static List<Cut> cuts(Transport transport) {
        if (transport == Transport.STDIO) {
            return CUTS;
        }
        List<Cut> all = new ArrayList<>(CUTS);
        all.add(CLOSE_AFTER_COMMIT);
        return all;
    }

    @Override
    public Set<Transport> transports() {
        return Set.of(Transport.STDIO, Transport.HTTP);
    }

    @Override
    public String name() {
        return "cut-points";
    }

    @Override
    public String title() {
        return "hard exit at each ledger cut point, then status-only recovery; the consumer matches the rows, no duplicate";
    }

    @Override
    public ExperimentReport run(FaultSession session) throws Exception {
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        int repetitions = session.size(1, 3);
        for (ServerKind sdk : session.sdks()) {
            int runs = 0;
            ObjectNode outcomes = ExactJson.mapper().createObjectNode();
            for (Cut cut : cuts(session.transport())) {
                for (int rep = 1; rep <= repetitions; rep++) {
                    runs++;
                    Path folder = session.folder(name(), session.scope(sdk), cut.fault() + "-" + rep);
                    outcomes.put(cut.fault(), once(session, session.scope(sdk) + " " + cut.fault() + " #" + rep, sdk, cut, folder));
                }
            }
            figures.putObject(sdk.label()).put("runs", runs).setAll(outcomes);
        }
        return new ExperimentReport(name(), title(), true, figures, List.of(), 0);
    }

    private String once(FaultSession session, String scope, ServerKind sdk, Cut cut, Path folder) throws Exception {
        FaultRecorder history = session.history();
        Path database = folder.resolve("store.sqlite3");
        WireSettings settings = WireSettings.matrix(database, "alice");
        String operationId = cut.operationId();
        ObjectNode arguments = ToolClient.arguments(operationId, "fault " + operationId, cut.mode());
        String state;
        String exit;
        ToolClient faulty = FaultServers.client(session, sdk, settings.withFault(cut.fault()), folder, "faulty");
        ToolClient recovery = null;
        history.ledger(scope, database, operationId);
        try {
            state = faulty.roundOne(arguments);
            history.cut(scope, cut.fault());
            history.sent(scope, database, operationId);
            exit = lostReply(faulty, arguments, state, sdk, cut);
            history.lost(scope, database, operationId, "the reply lost at " + cut.fault() + ": " + exit);
            if (!cut.keepsServing()) {
                history.kill(scope, "server", "exited " + exit + " at " + cut.fault());
            }
            history.expect(scope, "exit", cut.keepsServing() ? STILL_SERVING : Integer.toString(cut.exitStatus()), exit);
            // the rows between the cut and the recovery, which the final rows cannot show
            long issuesAfterCut = session.ledger().count(database, "issues");
            history.expect(scope, "issues after the cut", cut.issues(), issuesAfterCut);
            List<Map<String, Object>> operation = session.ledger().rows(database,
                    "SELECT state, result FROM operations WHERE operation_id = ?", operationId);
            String rowState = operation.isEmpty() ? null : (String) operation.get(0).get("state");
            history.expect(scope, "operation row state after the cut", cut.operationState(), rowState);
            // A server that kept serving settles its own lost reply; one that exited is replaced by a fresh one.
            if (cut.keepsServing()) {
                recovery = faulty;
            } else {
                faulty.close();
                recovery = FaultServers.client(session, sdk, settings, folder, "recovery");
            }
            RecoveryState settled = StatusRecovery.settle(recovery, new OperationIdentity(operationId, "alice", WireSettings.BACKEND),
                    new TransportFailure("reply lost at " + cut.fault()));
            if (settled.action() == RecoveryAction.RETURN_STORED_RESULT) {
                // the status said applied and handed the stored result back: the row must hold it
                history.succeeded(scope, database, operationId, settled.storedResult());
            }
            Reply again = recovery.commit(arguments, state, "fault body");
            history.answer(scope, database, operationId, again);
            String retry = again.refused() ? again.mechanism()
                    : again.structured().path("replayed").asBoolean() ? "replayed" : "created";
            history.expect(scope, "consumer", cut.effect().wire() + "/" + cut.action(), settled.effect().wire() + "/" + settled.action());
            history.expect(scope, "recovery authorises a fresh write", false, settled.freshWriteAuthorized());
            history.expect(scope, "retry of the same continuation", cut.retry(), retry);
            return (cut.keepsServing() ? "no reply, " + exit : "exit " + exit) + "; rows " + issuesAfterCut + " issue(s), operation "
                    + rowState + "; consumer " + settled.effect().wire() + ", " + settled.action().wire() + "; retry " + retry;
        } finally {
            faulty.close();
            if (recovery != null && recovery != faulty) {
                recovery.close();
            }
        }
    }

    /**
     * The continuation whose reply the fault loses. Java exits at every cut; a bridge fixture (TypeScript, Python, Go)
     * exits at 70 (it drops its own reply) and survives 71–73, which kill its bridge child and fail the call with the
     * child's status.
     */
    private static String lostReply(ToolClient faulty, ObjectNode arguments, String state, ServerKind sdk, Cut cut) throws Exception {
        try {
            Reply reply = faulty.commit(arguments, state, "fault body");
            String text = reply.refusalText();
            String prefix = "bridge machinery failure: ";
            if (sdk.reachesLedgerThroughBridge() && text != null && text.startsWith(prefix)) {
                return text.substring(prefix.length()).split(";", 2)[0];
            }
            return "none (a terminal reply arrived: " + reply.raw() + ")";
        } catch (TransportFailure lost) {
            if (cut.keepsServing()) {
                return faulty.isAlive() ? STILL_SERVING : "exited " + faulty.process().exitStatus();
            }
            return Integer.toString(faulty.process().awaitExit(java.time.Duration.ofSeconds(15)));
        }
    }
}
