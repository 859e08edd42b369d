package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.failAt;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.id;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.jdbc;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.tableCounts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Group commit: atomic applies that wait for the ledger together share one transaction and one commit, each is
 * answered only after that commit, a member's own refusal or failure stays its own, and a failed commit is every
 * member's error. A group is lined up for certain: a first apply holds the transaction open at its cut point until
 * the others are queued behind it, so they are committed together by whoever takes the lock next.
 */
@Timeout(60)
class GroupCommitTest extends FreshLedger {
    private static final Deadlines DEADLINES = Deadlines.of(100, 110, 120);
    private ExecutorService threads;

    @BeforeEach
    void threads() {
        threads = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private static ApplyRequest request(String operationId, String fingerprint) {
        return ApplyRequest.at(id(operationId), fingerprint, "T " + operationId, "B", DEADLINES, 100.0);
    }

    private record Member(ApplyRequest request, FaultHook hook) {}

    /**
     * Runs {@code members} as one group: a blocker holds the lock inside its transaction until every member is
     * queued, in order. Returns each member's future; the blocker's own commit is checked.
     */
    private List<Future<ApplyResult>> asOneGroup(List<Member> members) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(1);
        Future<ApplyResult> blocker = threads.submit(() -> ledger.applyIssueOnce(request("blocker", "fp"), point -> {
            if (point == CutPoint.AFTER_LEDGER_INSERT) {
                holding.countDown();
                await(release);
            }
        }));
        assertTrue(holding.await(20, TimeUnit.SECONDS));
        List<Future<ApplyResult>> futures = new ArrayList<>();
        for (Member member : members) {
            int before = ledger.waitingApplies();
            futures.add(threads.submit(() -> ledger.applyIssueOnce(member.request(), member.hook())));
            // one at a time, so the queue's order is the list's
            while (ledger.waitingApplies() == before) {
                Thread.sleep(1);
            }
        }
        release.countDown();
        assertFalse(blocker.get().replayed());
        return futures;
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Throwable failureOf(Future<ApplyResult> future) throws InterruptedException {
        try {
            future.get();
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("expected a failure");
    }

    @Test
    void waitingAppliesShareOneCommitAndEachGetsItsOwnAnswer() throws Exception {
        ledger.applyIssueOnce(request("taken", "fp-1"), FaultHook.NONE);
        long commitsBefore = ledger.commits();
        List<Future<ApplyResult>> answers = asOneGroup(List.of(
                new Member(request("a", "fp"), FaultHook.NONE),
                new Member(request("taken", "fp-2"), FaultHook.NONE), // another fingerprint: a conflict
                new Member(ApplyRequest.at(id("bad"), "fp", "T", "B", Deadlines.of(100, 90, 120), 100.0), FaultHook.NONE),
                new Member(request("a", "fp"), FaultHook.NONE), // identical to the first member: a replay of its row
                new Member(request("e", "fp"), FaultHook.NONE)));
        ApplyResult a = answers.get(0).get();
        assertEquals(new ApplyResult(3, "created 3", false, OperationState.APPLIED), a);
        assertInstanceOf(OperationConflict.class, failureOf(answers.get(1)));
        Throwable invalid = failureOf(answers.get(2));
        assertInstanceOf(IllegalArgumentException.class, invalid);
        assertEquals("authority_expires_at must follow issued_at", invalid.getMessage());
        assertEquals(new ApplyResult(3, "created 3", true, OperationState.APPLIED), answers.get(3).get());
        assertEquals(new ApplyResult(4, "created 4", false, OperationState.APPLIED), answers.get(4).get());
        assertEquals(commitsBefore + 2, ledger.commits(), "the blocker's commit, then one for the whole group");
        // taken, blocker, a, e: the refused members left nothing
        assertEquals(List.of(4L, 4L, 0L, 0L, 0L), tableCounts(location));
        assertTrue(ledger.operationRecord(id("bad")).isEmpty());
    }

    @Test
    void aMembersOwnFailureRollsBackOnlyItsWorkAndTheOthersCommit() throws Exception {
        List<Future<ApplyResult>> answers = asOneGroup(List.of(
                new Member(request("a", "fp"), FaultHook.NONE),
                new Member(request("cut", "fp"), failAt(CutPoint.AFTER_ISSUE_INSERT)),
                new Member(request("c", "fp"), FaultHook.NONE)));
        Throwable cut = failureOf(answers.get(1));
        assertInstanceOf(IllegalStateException.class, cut);
        assertEquals("cut at after-issue-insert", cut.getMessage());
        // the group ran again without the failed member, so its rolled-back issue id is given to the next
        assertEquals("created 2", answers.get(0).get().result());
        assertEquals("created 3", answers.get(2).get().result());
        assertEquals(List.of(3L, 3L, 0L, 0L, 0L), tableCounts(location));
        assertTrue(ledger.operationRecord(id("cut")).isEmpty());
        // the failed apply, retried, is a new operation: nothing of it was durable
        assertEquals("created 4", ledger.applyIssueOnce(request("cut", "fp"), FaultHook.NONE).result());
    }

    @Test
    void aFailedCommitIsEveryMembersErrorAndNoneIsToldItCommitted() throws Exception {
        try (Connection raw = jdbc(location); Statement statement = raw.createStatement()) {
            // a row that breaks a deferred foreign key fails only at COMMIT
            statement.execute("CREATE TABLE gate_parent(id INTEGER PRIMARY KEY)");
            statement.execute("CREATE TABLE gate(parent INTEGER REFERENCES gate_parent(id) DEFERRABLE INITIALLY DEFERRED)");
        }
        FaultHook breakTheCommit = point -> {
            if (point == CutPoint.AFTER_ISSUE_INSERT) {
                try {
                    // the hook runs on the thread that holds the ledger's transaction open
                    ledger.read(connection -> {
                        try (Statement statement = connection.createStatement()) {
                            statement.execute("INSERT INTO gate(parent) VALUES (42)");
                        }
                        return null;
                    });
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        List<Future<ApplyResult>> answers = asOneGroup(List.of(
                new Member(request("a", "fp"), FaultHook.NONE),
                new Member(request("b", "fp"), breakTheCommit),
                new Member(request("taken", "fp"), FaultHook.NONE)));
        List<Throwable> failures = new ArrayList<>();
        for (Future<ApplyResult> answer : answers) {
            Throwable failure = failureOf(answer);
            assertInstanceOf(SQLException.class, failure);
            assertTrue(failure.getMessage().toLowerCase(java.util.Locale.ROOT).contains("foreign key"), failure.getMessage());
            failures.add(failure);
        }
        assertNotSame(failures.get(0), failures.get(1), "each member gets its own exception");
        // only the blocker's work is durable
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
        // and the ledger goes on serving: the same requests, alone, commit
        assertEquals("created 2", ledger.applyIssueOnce(request("a", "fp"), FaultHook.NONE).result());
    }

    @Test
    void manyCallersOfOneLedgerApplyEachOperationOnce() throws Exception {
        int callers = 24;
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<ApplyResult>> answers = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            // three callers per operation id, identical requests: one creates, two replay its result
            String operationId = "op-" + (i % 8);
            answers.add(CompletableFuture.supplyAsync(() -> {
                await(start);
                try {
                    return ledger.applyIssueOnce(request(operationId, "fp"), FaultHook.NONE);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, threads));
        }
        start.countDown();
        java.util.Map<String, Long> effectByResult = new java.util.HashMap<>();
        int created = 0;
        for (int i = 0; i < callers; i++) {
            ApplyResult result = answers.get(i).get();
            created += result.replayed() ? 0 : 1;
            Long earlier = effectByResult.putIfAbsent("op-" + (i % 8), result.effectId());
            if (earlier != null) {
                assertEquals(earlier, result.effectId(), "every answer for one operation names one effect");
            }
        }
        assertEquals(8, created);
        assertEquals(List.of(8L, 8L, 0L, 0L, 0L), tableCounts(location));
    }
}
