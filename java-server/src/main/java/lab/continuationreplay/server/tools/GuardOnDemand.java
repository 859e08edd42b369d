package lab.continuationreplay.server.tools;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import lab.continuationreplay.store.guard.IssueGuard;
import lab.continuationreplay.store.ledger.IssueLedger;

/**
 * The guard, with its ledger opened when a call first needs it and opened again on a later call if opening failed
 * for a storage reason. A server started while its disk is read-only or full therefore answers every call with
 * {@code ledger unavailable} and serves normally once the fault clears, without a restart.
 */
public final class GuardOnDemand implements AutoCloseable {
    /** Opens the ledger; builds the guard on it. */
    public interface Opener {
        IssueLedger openLedger() throws SQLException;

        IssueGuard guardOn(IssueLedger ledger, String principal);
    }

    private final Opener opener;
    private IssueLedger ledger;
    // One guard per principal on the one ledger: over HTTP each bearer token's principal has its own guard config.
    private final Map<String, IssueGuard> guards = new HashMap<>();

    public GuardOnDemand(Opener opener) {
        this.opener = opener;
    }

    public synchronized IssueGuard get(String principal) throws SQLException {
        IssueGuard guard = guards.get(principal);
        if (guard != null) {
            return guard;
        }
        if (ledger == null) {
            IssueLedger opened = opener.openLedger();
            try {
                guard = opener.guardOn(opened, principal);
            } catch (RuntimeException e) {
                opened.close();
                throw e;
            }
            ledger = opened;
        } else {
            guard = opener.guardOn(ledger, principal);
        }
        guards.put(principal, guard);
        return guard;
    }

    /** The last connection to close checkpoints the WAL, so a cleanly ended server leaves one self-contained file. */
    @Override
    public synchronized void close() throws SQLException {
        if (ledger != null) {
            ledger.close();
            ledger = null;
            guards.clear();
        }
    }
}
