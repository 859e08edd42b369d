package lab.continuationreplay.server;

import java.util.Optional;
import lab.continuationreplay.server.state.SealedRequestState;
import lab.continuationreplay.server.tools.GuardedTools;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.guard.IssueGuard;
import lab.continuationreplay.store.guard.LabFault;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;

/**
 * The guarded Java server: {@code create_guarded_issue} and {@code get_operation_status} over stdio, configured
 * only by its {@code WIRE_*} environment. stdout is the wire; logs go to stderr.
 */
public final class GuardedServerMain {
    static final String NAME = "continuation-replay-java-guarded";
    static final int BAD_CONFIGURATION = 2;

    private GuardedServerMain() {}

    public static void main(String[] args) {
        TrustedEnvironment env = TrustedEnvironment.fromProcess();
        IssueLedger ledger;
        GuardedTools tools;
        try {
            Optional<LabFault> fault = env.fault();
            SealedRequestState sealer = new SealedRequestState(env.stateKey(), env.requestStateTtl(), NAME);
            ledger = IssueLedger.open(env.database(), env.backendId());
            IssueGuard guard = new IssueGuard(env.guardConfig(true), ledger, fault.map(LabFault::hook).orElse(FaultHook.NONE));
            tools = new GuardedTools(guard, sealer, fault, StdioServer.MAPPER);
        } catch (Exception e) {
            System.err.println("java-server: " + e.getMessage());
            System.exit(BAD_CONFIGURATION);
            return;
        }
        StdioServer.serve(NAME, tools.tools());
        closeQuietly(ledger);
    }

    /** The last connection to close checkpoints the WAL, so a cleanly ended server leaves one self-contained file. */
    static void closeQuietly(IssueLedger ledger) {
        try {
            ledger.close();
        } catch (java.sql.SQLException e) {
            System.err.println("java-server: closing the ledger: " + e.getMessage());
        }
    }
}
