package lab.continuationreplay.server.tools;

import java.sql.SQLException;
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

        IssueGuard guardOn(IssueLedger ledger);
    }

    private final Opener opener;
    private IssueLedger ledger;
    private IssueGuard guard;

    public GuardOnDemand(Opener opener) {
        this.opener = opener;
    }

    public synchronized IssueGuard get() throws SQLException {
        if (guard == null) {
            IssueLedger opened = opener.openLedger();
            try {
                guard = opener.guardOn(opened);
            } catch (RuntimeException e) {
                opened.close();
                throw e;
            }
            ledger = opened;
        }
        return guard;
    }

    /** The last connection to close checkpoints the WAL, so a cleanly ended server leaves one self-contained file. */
    @Override
    public synchronized void close() throws SQLException {
        if (ledger != null) {
            ledger.close();
            ledger = null;
            guard = null;
        }
    }
}
