package lab.continuationreplay.server;

import java.sql.SQLException;
import java.util.Optional;
import lab.continuationreplay.server.state.SealedRequestState;
import lab.continuationreplay.server.tools.GuardOnDemand;
import lab.continuationreplay.server.tools.GuardedTools;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.stdio.WireStdout;
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
        java.io.OutputStream wire = WireStdout.claim("java-server");
        TrustedEnvironment env = TrustedEnvironment.fromProcess();
        GuardOnDemand guard;
        GuardedTools tools;
        try {
            Optional<LabFault> fault = env.fault();
            SealedRequestState sealer = new SealedRequestState(env.stateKey(), env.requestStateTtl(), NAME);
            guard = new GuardOnDemand(new GuardOnDemand.Opener() {
                @Override
                public IssueLedger openLedger() throws SQLException {
                    return IssueLedger.open(env.database(), env.backendId());
                }

                @Override
                public IssueGuard guardOn(IssueLedger ledger) {
                    return new IssueGuard(env.guardConfig(true), ledger, fault.map(LabFault::hook).orElse(FaultHook.NONE));
                }
            });
            tools = new GuardedTools(guard, sealer, fault, StdioServer.MAPPER);
            openNowIfStorageAllows(guard);
        } catch (Exception e) {
            System.err.println("java-server: " + e.getMessage());
            System.exit(BAD_CONFIGURATION);
            return;
        }
        StdioServer.serve(NAME, tools.tools(), wire);
        try {
            guard.close();
        } catch (SQLException e) {
            System.err.println("java-server: closing the ledger: " + e.getMessage());
        }
    }

    /**
     * A wrong configuration (a file bound to another backend, say) stops the server now; a storage failure (a
     * read-only or full disk) does not: the server serves and answers {@code ledger unavailable} until it clears.
     */
    private static void openNowIfStorageAllows(GuardOnDemand guard) {
        try {
            guard.get();
        } catch (SQLException storage) {
            System.err.println("java-server: the ledger cannot be opened now (" + storage.getMessage()
                    + "); serving, and opening it again on each call");
        }
    }
}
