package lab.continuationreplay.store.process;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.ledger.LedgerLocation;
import lab.continuationreplay.store.guard.LabFault;
import lab.continuationreplay.store.ledger.ApplyRequest;
import lab.continuationreplay.store.ledger.ApplyResult;
import lab.continuationreplay.store.ledger.Deadlines;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerQueries;
import lab.continuationreplay.store.ledger.OperationRejected;
import lab.continuationreplay.store.ledger.PartialSteps;

/**
 * A separate JVM that uses the ledger the way a server process does, finding it the same way (the trusted
 * environment: a SQLite file or a PostgreSQL URL). Commands: {@code open BACKEND} (waits at the barrier, then
 * opens), {@code apply BACKEND OP PRINCIPAL FINGERPRINT FAULT} and {@code partial …} (open, wait at the barrier,
 * apply; FAULT is a WIRE_FAULT name or "none").
 * The barrier: print "ready", then block until the parent writes a line. Prints exactly one result line.
 */
public final class LedgerChild {
    private LedgerChild() {}

    public static void main(String[] args) throws Exception {
        String command = args[0];
        LedgerLocation db = TrustedEnvironment.fromProcess().ledger();
        String backend = args[1];
        BufferedReader parent = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            if (command.equals("open")) {
                awaitBarrier(parent);
                try (IssueLedger ledger = IssueLedger.open(db, backend)) {
                    System.out.println("opened " + new LedgerQueries(ledger).issueCount());
                }
                return;
            }
            OperationIdentity identity = new OperationIdentity(args[2], args[3], backend);
            String fingerprint = args[4];
            FaultHook hook = args[5].equals("none") ? FaultHook.NONE : LabFault.parse(args[5]).orElseThrow().hook();
            try (IssueLedger ledger = IssueLedger.open(db, backend)) {
                awaitBarrier(parent);
                Deadlines deadlines = Deadlines.of(100, 400, 460);
                ApplyResult result = command.equals("partial") ? ledger.applyPartialIssueOnce(ApplyRequest.at(identity,
                        fingerprint, "title", "body", deadlines, 100.0), PartialSteps.injectedFailures(),
                        hook) : ledger.applyIssueOnce(ApplyRequest.at(identity, fingerprint, "title", "body",
                        deadlines, 100.0), hook);
                System.out.println("applied " + result.effectId() + " " + result.replayed() + " " + result.result());
            }
        } catch (OperationRejected rejected) {
            System.out.println("rejected " + rejected.wireCode());
        } catch (Exception e) {
            System.out.println("error " + e);
        }
        System.out.flush();
    }

    private static void awaitBarrier(BufferedReader parent) throws java.io.IOException {
        System.out.println("ready");
        System.out.flush();
        parent.readLine();
    }
}
