package lab.continuationreplay.store.ledger;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Group commit for the atomic apply: the callers that wait for the ledger's lock together share one write transaction,
 * each inside its own savepoint, and are all answered after its one {@code COMMIT}: one fsync per group instead of one
 * per operation, and never an answer before the commit that holds the operation's work. A lone caller's transaction is
 * the single apply it always was.
 */
final class GroupCommit {
    /** The most atomic applies one transaction holds; more wait for the next. */
    static final int MAX_GROUP = 64;
    private static final String SAVEPOINT = "SAVEPOINT apply";
    private static final String ROLLBACK_TO_SAVEPOINT = "ROLLBACK TO SAVEPOINT apply";
    private static final String RELEASE_SAVEPOINT = "RELEASE SAVEPOINT apply";

    /** The atomic apply's work inside an open write transaction. */
    @FunctionalInterface
    interface Apply {
        ApplyResult apply(ApplyRequest request, FaultHook faultHook) throws SQLException;
    }

    /** A member's outcome inside the shared transaction: its result, or the rules' refusal that is its answer alone. */
    private record Outcome(ApplyResult result, RuntimeException refusal) {}

    private final LedgerSession session;
    private final Apply apply;
    /** Atomic applies waiting for a commit; taken with the ledger's lock held. */
    private final ConcurrentLinkedQueue<Pending> waiting = new ConcurrentLinkedQueue<>();

    GroupCommit(LedgerSession session, Apply apply) {
        this.session = session;
        this.apply = apply;
    }

    /** Queues an apply before its caller takes the ledger's lock. */
    Pending enqueue(ApplyRequest request, FaultHook faultHook) {
        Pending mine = new Pending(request, faultHook);
        waiting.add(mine);
        return mine;
    }

    /**
     * Whoever holds the lock commits every apply waiting by then: its own and the ones queued behind the previous
     * commit. Ours may already have been committed (and settled) by the holder before us. Called with the lock held.
     */
    ApplyResult commit(Pending mine) throws SQLException {
        while (!mine.settled()) {
            commitTogether(takeWaiting());
        }
        return mine.outcome();
    }

    int waiting() {
        return waiting.size();
    }

    /** Up to {@link #MAX_GROUP} atomic applies waiting for a commit, oldest first. */
    private List<Pending> takeWaiting() {
        List<Pending> group = new ArrayList<>();
        for (Pending next; group.size() < MAX_GROUP && (next = waiting.poll()) != null; ) {
            group.add(next);
        }
        return group;
    }

    /**
     * Runs {@code group}'s applies in one write transaction, each inside its own savepoint, and settles every member
     * only after the {@code COMMIT} that holds its work returned (so it is durable, as for one apply). A member's
     * refusal (conflict, in progress, expired, invalid) rolls back to its savepoint and is its answer alone. Any other
     * failure of a member (a storage error inside its statements, a cut point that throws) rolls the whole transaction
     * back, is that member's answer, and the others run again without it. A failure of the transaction itself
     * ({@code BEGIN}, {@code COMMIT}, a lost session) is every member's answer: none is told it committed. A group of
     * one runs exactly as a single apply always did, without savepoints. Every member is settled when it returns.
     */
    private void commitTogether(List<Pending> group) {
        List<Pending> left = new ArrayList<>(group);
        try {
            while (!left.isEmpty()) {
                try {
                    if (left.size() == 1) {
                        Pending only = left.get(0);
                        only.settle(session.immediate(() -> apply.apply(only.request, only.faultHook)), null);
                    } else {
                        List<Outcome> outcomes = session.immediate(() -> applyEach(left));
                        for (int i = 0; i < left.size(); i++) {
                            left.get(i).settle(outcomes.get(i).result(), outcomes.get(i).refusal());
                        }
                    }
                    left.clear();
                } catch (MemberFailed failed) {
                    failed.member.settle(null, failed.getCause());
                    left.remove(failed.member);
                } catch (SQLException | RuntimeException | Error failure) {
                    for (Pending member : left) {
                        member.settle(null, left.size() == 1 ? failure : copyFor(failure));
                    }
                    left.clear();
                }
            }
        } finally {
            for (Pending member : group) {
                if (!member.settled()) {
                    member.settle(null, new SQLException("the ledger stopped before this apply was committed"));
                }
            }
        }
    }

    /** The members' applies in the open transaction, each in a savepoint; a refusal is its member's outcome. */
    private List<Outcome> applyEach(List<Pending> members) throws SQLException {
        List<Outcome> outcomes = new ArrayList<>(members.size());
        for (Pending member : members) {
            session.statement(SAVEPOINT).execute();
            Outcome outcome;
            try {
                outcome = new Outcome(apply.apply(member.request, member.faultHook), null);
            } catch (OperationRejected | IllegalArgumentException refusal) {
                // the rules refused it; whatever it wrote before (nothing, today) goes, the others' work stays
                session.statement(ROLLBACK_TO_SAVEPOINT).execute();
                outcome = new Outcome(null, refusal);
            } catch (SQLException e) {
                if (session.store().lostARace(e) || session.endedBy(e)) {
                    throw e; // the transaction's, not the member's: run again, or every member's error
                }
                throw new MemberFailed(member, e);
            } catch (RuntimeException | Error e) {
                throw new MemberFailed(member, e);
            }
            session.statement(RELEASE_SAVEPOINT).execute();
            outcomes.add(outcome);
        }
        return outcomes;
    }

    /** Each member gets its own exception object (same text and SQLState), so no two threads share one. */
    private static Throwable copyFor(Throwable failure) {
        if (failure instanceof SQLException e) {
            return new SQLException(e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
        }
        return failure;
    }

    /** A member's own failure inside a group: the transaction is rolled back and the member leaves the group. */
    private static final class MemberFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Pending member;

        MemberFailed(Pending member, Throwable cause) {
            super(cause.getMessage(), cause, false, false);
            this.member = member;
        }
    }

    /**
     * One atomic apply waiting for its commit. Its fields are written by whichever thread holds the ledger's lock and
     * read by its own thread after taking that lock itself, so the lock orders them.
     */
    static final class Pending {
        final ApplyRequest request;
        final FaultHook faultHook;
        private boolean settled;
        private ApplyResult result;
        private Throwable failure;

        private Pending(ApplyRequest request, FaultHook faultHook) {
            this.request = request;
            this.faultHook = faultHook;
        }

        boolean settled() {
            return settled;
        }

        void settle(ApplyResult result, Throwable failure) {
            this.settled = true;
            this.result = result;
            this.failure = failure;
        }

        ApplyResult outcome() throws SQLException {
            if (failure instanceof SQLException e) {
                throw e;
            }
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            if (result == null) {
                throw new IllegalStateException("an apply was settled without an outcome");
            }
            return result;
        }
    }
}
