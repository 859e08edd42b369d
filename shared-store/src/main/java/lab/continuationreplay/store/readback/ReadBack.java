package lab.continuationreplay.store.readback;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.ledger.Issue;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerQueries;
import lab.continuationreplay.store.ledger.OperationRecord;
import lab.continuationreplay.store.ledger.OperationState;

/**
 * Read-only observations of the ledger (seed spec §6.2) for one principal at the injected clock. Only
 * {@link #reconcileOperation} is authoritative; the others are diagnostics that can show duplicates but settle
 * nothing.
 */
public final class ReadBack {
    static final String NO_RECORD = "no durable operation record; absence is not terminal non-application proof";

    private final IssueLedger ledger;
    private final String principal;
    private final long nowEpoch;

    public ReadBack(IssueLedger ledger, String principal, long nowEpoch) {
        this.ledger = ledger;
        this.principal = principal;
        this.nowEpoch = nowEpoch;
    }

    /** The authoritative status of one operation, bound to its full identity. */
    public EffectObservation reconcileOperation(OperationIdentity identity) throws SQLException {
        if (!identity.backend().equals(ledger.backendId())) {
            throw new IllegalArgumentException("reconciliation backend does not match the store");
        }
        if (!identity.principal().equals(principal)) {
            throw new IllegalArgumentException("reconciliation principal is outside the authorized read-back scope");
        }
        Optional<OperationRecord> found = ledger.operationRecord(identity);
        EffectState state = EffectState.UNKNOWN;
        List<Long> ids = List.of();
        String detail;
        if (found.isEmpty()) {
            detail = NO_RECORD;
        } else {
            OperationRecord record = found.get();
            boolean effectPresent = record.effectId() != null && ledger.issue(record.effectId()).isPresent();
            if (record.state() == OperationState.APPLIED && effectPresent) {
                state = EffectState.APPLIED;
                detail = "operation ledger and effect row are present";
            } else if (record.state() == OperationState.PARTIAL && effectPresent) {
                state = EffectState.PARTIAL;
                detail = "operation ledger records a partial effect";
            } else {
                // in progress, or an applied/partial row whose issue is gone: an orphan settles nothing
                detail = "operation ledger state is '" + record.state().stored() + "'";
            }
            if (state.hasEffect()) {
                ids = List.of(record.effectId());
            }
        }
        String storedResult = state.hasEffect() ? found.get().result() : null;
        return new EffectObservation(identity, EpochClock.isoOffset(nowEpoch), true, scopeOf(identity), state, ids,
                detail, storedResult, identity);
    }

    /** Diagnostic: issues with this title (duplicates show as more than one id). */
    public EffectObservation observeByTitle(String title, String operationId) throws SQLException {
        return byContent(diagnostics().issuesWithTitle(title), "issue.title == " + quoted(title), "title", operationId);
    }

    /** Diagnostic: issues with this body. */
    public EffectObservation observeByBody(String body, String operationId) throws SQLException {
        return byContent(diagnostics().issuesWithBody(body), "issue.body == " + quoted(body), "body", operationId);
    }

    /** Diagnostic: is every issue with this title watched by {@code watcher}? */
    public EffectObservation observeIssueWithWatcher(String title, String watcher, String operationId) throws SQLException {
        LedgerQueries queries = diagnostics();
        List<Issue> issues = queries.issuesWithTitle(title);
        List<Long> ids = issues.stream().map(Issue::id).toList();
        EffectState state;
        String detail;
        if (issues.isEmpty()) {
            state = EffectState.NOT_APPLIED;
            detail = "no issue";
        } else {
            boolean allWatched = true;
            for (Issue issue : issues) {
                allWatched &= queries.watchersFor(issue.id()).contains(watcher);
            }
            state = allWatched ? EffectState.APPLIED : EffectState.PARTIAL;
            detail = allWatched ? "issue and watcher present" : "issue present without watcher";
        }
        return diagnostic(operationId, "issue.title == " + quoted(title) + " with watcher " + quoted(watcher), state, ids, detail);
    }

    /** The diagnostics read the ledger's content, which settles nothing, so they use the reader, not the writer. */
    private LedgerQueries diagnostics() {
        return new LedgerQueries(ledger);
    }

    private EffectObservation byContent(List<Issue> issues, String scope, String what, String operationId) {
        List<Long> ids = issues.stream().map(Issue::id).toList();
        EffectState state = ids.isEmpty() ? EffectState.NOT_APPLIED : EffectState.APPLIED;
        return diagnostic(operationId, scope, state, ids, ids.size() + " issue(s) matching " + what);
    }

    private EffectObservation diagnostic(String operationId, String scope, EffectState state, List<Long> ids, String detail) {
        OperationIdentity identity = new OperationIdentity(operationId, principal, ledger.backendId());
        return new EffectObservation(identity, EpochClock.isoOffset(nowEpoch), false, scope, state, ids, detail, null, null);
    }

    /** {@code operation_id='…'; principal='…'; backend='…'}: human-readable; the binding is {@code scopeBinding}. */
    public static String scopeOf(OperationIdentity identity) {
        return "operation_id=" + quoted(identity.operationId()) + "; principal=" + quoted(identity.principal())
                + "; backend=" + quoted(identity.backend());
    }

    /** Single-quoted, with backslash, quote and control characters escaped, so a scope is always one line. */
    private static String quoted(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('\'');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\'' -> out.append("\\'");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('\'').toString();
    }
}
