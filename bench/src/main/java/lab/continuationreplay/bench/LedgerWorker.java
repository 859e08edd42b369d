package lab.continuationreplay.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.ledger.ApplyRequest;
import lab.continuationreplay.store.ledger.ApplyResult;
import lab.continuationreplay.store.ledger.Deadlines;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;

/**
 * A child process of benchmark 2: {@code LedgerWorker DB COUNT ID distinct|same}. Opens the ledger, prints
 * {@code ready}, waits for {@code go} on stdin, then applies {@code COUNT} atomic operations through
 * {@link IssueLedger#applyIssueOnce}: {@code ID-0 … ID-(COUNT-1)} (distinct), or {@code ID} itself (same, the race).
 * Prints {@code done} or, for the race, {@code answer <replayed> <effect id>}. Exit 0, or 1 with a line on stderr.
 */
public final class LedgerWorker {
    static final String FINGERPRINT = "0".repeat(63) + "1";

    private LedgerWorker() {}

    public static void main(String[] args) throws Exception {
        Path database = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        String id = args[2];
        boolean same = args[3].equals("same");
        long t0 = WireSettings.T0;
        Deadlines deadlines = Deadlines.of(t0, t0 + 300, t0 + 360);
        try (IssueLedger ledger = IssueLedger.open(database, WireSettings.BACKEND)) {
            System.out.println("ready");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            if (!"go".equals(in.readLine())) {
                System.exit(1);
            }
            ApplyResult last = null;
            for (int i = 0; i < count; i++) {
                OperationIdentity identity = new OperationIdentity(same ? id : id + "-" + i, "alice", WireSettings.BACKEND);
                last = ledger.applyIssueOnce(ApplyRequest.at(identity, FINGERPRINT, "bench", "alpha", deadlines, t0),
                        FaultHook.NONE);
            }
            System.out.println(same && last != null ? "answer " + last.replayed() + " " + last.effectId() : "done");
            System.out.flush();
        } catch (Exception e) {
            System.err.println("ledger worker: " + e);
            System.exit(1);
        }
    }
}
