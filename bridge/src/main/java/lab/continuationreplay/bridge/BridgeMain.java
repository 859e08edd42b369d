package lab.continuationreplay.bridge;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.sql.SQLException;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.guard.GuardConfig;
import lab.continuationreplay.store.guard.IssueGuard;
import lab.continuationreplay.store.guard.LabFault;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerLocation;
import lab.continuationreplay.store.stdio.WireStdout;

/**
 * The JSON line bridge: a long-lived child of one fixture process (TypeScript, Python, Go). Everything trusted (the
 * ledger: a SQLite file, or a PostgreSQL URL with its user and password; backend, principal, clock, fingerprint key,
 * fault) comes from its own environment; requests carry only the call. No message prints the ledger's password.
 * Exit 0 at end of input, 2 for a bad configuration, 71–73 at a lab fault's cut point.
 */
public final class BridgeMain {
    static final int BAD_CONFIGURATION = 2;

    private BridgeMain() {}

    public static void main(String[] args) {
        OutputStream wire = WireStdout.claim("bridge");
        System.exit(run(TrustedEnvironment.fromProcess(), System.in, wire));
    }

    static int run(TrustedEnvironment environment, InputStream in, OutputStream wire) {
        LedgerLocation database;
        GuardConfig config;
        FaultHook faultHook;
        try {
            database = environment.ledger();
            config = environment.guardConfig(false);
            // drop-after-commit has no cut point (the fixture drops the reply), so its hook does nothing here
            faultHook = environment.fault().map(LabFault::hook).orElse(FaultHook.NONE);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return BAD_CONFIGURATION;
        }
        IssueLedger ledger;
        try {
            ledger = IssueLedger.open(database, config.backendId());
        } catch (SQLException | IllegalArgumentException e) {
            System.err.println("cannot open the ledger: " + e.getMessage());
            return BAD_CONFIGURATION;
        }
        try (ledger) {
            new BridgeLoop(in, wire, new BridgeService(new IssueGuard(config, ledger, faultHook), ledger)).run();
            return 0;
        } catch (IOException e) {
            System.err.println("bridge: the wire failed: " + e.getMessage());
            return 1;
        } catch (SQLException e) {
            System.err.println("bridge: closing the ledger failed: " + e.getMessage());
            return 1;
        }
    }
}
