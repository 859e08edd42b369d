package lab.continuationreplay.matrix.cases;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.matrix.run.CaseContext;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.TransportFailure;

/**
 * The twelve cases of seed spec §9, the same processes, calls, clocks and faults for every SDK. The seed's
 * TypeScript-only read-backs (cases 02, 06, 12) run for both SDKs, so both produce the same kinds of evidence.
 */
public final class MatrixCases {
    static final long T0 = WireSettings.T0;

    private MatrixCases() {}

    public static List<MatrixCase> all() {
        return List.of(
                new MatrixCase("01", "identical_retry", "stored_result_one_effect", MatrixCases::identicalRetry),
                new MatrixCase("02", "never_admitted", "unknown_no_retry", MatrixCases::neverAdmitted),
                new MatrixCase("03", "lost_reply_then_explicit_replay", "reconciled_applied_one_effect", MatrixCases::lostReplyThenReplay),
                new MatrixCase("04", "changed_input_responses", "conflict_before_second_effect", MatrixCases::changedInputResponses),
                new MatrixCase("05", "changed_request_state", "conflict_before_second_effect", MatrixCases::changedRequestState),
                new MatrixCase("06", "different_principal", "unauthorized_not_equivalent", MatrixCases::differentPrincipal),
                new MatrixCase("07", "authority_expires_before_reconciliation",
                        "write_rejected_observe_without_fresh_write_authority", MatrixCases::authorityExpires),
                new MatrixCase("08", "concurrent_identical_attempts", "joined_one_apply_one_replay_one_effect", MatrixCases::concurrentAttempts),
                new MatrixCase("09", "crash_after_commit_before_reply", "unknown_then_authoritative_applied_no_redispatch",
                        MatrixCases::crashAfterCommit),
                new MatrixCase("10", "operation_replay_retention_expiry", "valid_token_rejected_after_retention_tombstone_retained",
                        MatrixCases::retentionExpiry),
                new MatrixCase("11", "request_state_stripped", "unsupported_rejected_no_effect", MatrixCases::stateStripped),
                new MatrixCase("12", "partial_effect_failed_compensation", "durable_partial_no_first_effect_replay",
                        MatrixCases::partialEffect));
    }

    static ObjectNode args(String id) {
        return arguments(id, "atomic");
    }

    /** {@code {"operation_id":"case-NN","title":"guarded-NN","mode":mode}}: the seed's names for a case's call. */
    static ObjectNode arguments(String caseId, String mode) {
        return ToolClient.arguments("case-" + caseId, "guarded-" + caseId, mode);
    }

    static void identicalRetry(CaseContext c) throws Exception {
        ToolClient server = c.spawn("server", c.alice());
        String token = server.roundOne(args("01"));
        server.commit(args("01"), token, "alpha");
        server.commit(args("01"), token, "alpha");
    }

    static void neverAdmitted(CaseContext c) throws Exception {
        ToolClient server = c.spawn("server", c.alice());
        server.roundOne(args("02"));
        c.close(server);
        c.spawn("readback", c.alice()).status("case-02");
    }

    static void lostReplyThenReplay(CaseContext c) throws Exception {
        ToolClient crash = c.spawn("crash", c.alice().withFault("drop-after-commit"));
        String token = crash.roundOne(args("03"));
        expectLostReply(crash, args("03"), token);
        ToolClient restart = c.spawn("restart", c.alice());
        restart.status("case-03");
        restart.commit(args("03"), token, "alpha");
    }

    static void changedInputResponses(CaseContext c) throws Exception {
        ToolClient server = c.spawn("server", c.alice());
        String token = server.roundOne(args("04"));
        server.commit(args("04"), token, "alpha");
        server.commit(args("04"), token, "beta");
    }

    static void changedRequestState(CaseContext c) throws Exception {
        ToolClient server = c.spawn("server", c.alice());
        String first = server.roundOne(args("05"));
        String second = server.roundOne(args("05"));
        server.commit(args("05"), first, "alpha");
        server.commit(args("05"), second, "alpha");
        server.commit(args("05"), tamper(second), "alpha");
    }

    /** The seed's tamper: the middle character becomes "A" (or "B" if it already is). */
    static String tamper(String token) {
        int middle = token.length() / 2;
        char replacement = token.charAt(middle) == 'A' ? 'B' : 'A';
        return token.substring(0, middle) + replacement + token.substring(middle + 1);
    }

    static void differentPrincipal(CaseContext c) throws Exception {
        ToolClient alice = c.spawn("alice", c.alice());
        String aliceToken = alice.roundOne(args("06"));
        alice.commit(args("06"), aliceToken, "alpha");
        c.close(alice);
        ToolClient bob = c.spawn("bob", c.alice().as("bob"));
        bob.commit(args("06"), aliceToken, "alpha");
        bob.commit(args("06"), bob.roundOne(args("06")), "alpha");
        c.close(bob);
        c.spawn("bob-readback", c.alice().as("bob")).status("case-06");
    }

    static void authorityExpires(CaseContext c) throws Exception {
        WireSettings settings = c.alice().withTtls(60, 360, 600);
        ToolClient current = c.spawn("current", settings);
        String token = current.roundOne(args("07"));
        current.commit(args("07"), token, "alpha");
        c.close(current);
        ToolClient after = c.spawn("after-authority-expiry", settings.at(T0 + 120));
        after.commit(args("07"), token, "alpha");
        after.status("case-07");
    }

    /** Two independent processes, both connected, released together at a barrier; completion is a join. */
    static void concurrentAttempts(CaseContext c) throws Exception {
        ToolClient issuer = c.spawn("issuer", c.alice());
        String token = issuer.roundOne(args("08"));
        c.close(issuer);
        ToolClient workerA = c.spawn("worker-a", c.alice());
        ToolClient workerB = c.spawn("worker-b", c.alice());
        CyclicBarrier barrier = new CyclicBarrier(3);
        List<Thread> workers = List.of(commitAtBarrier(workerA, token, barrier), commitAtBarrier(workerB, token, barrier));
        workers.forEach(Thread::start);
        barrier.await(5, TimeUnit.SECONDS);
        for (Thread worker : workers) {
            worker.join(10_000);
            if (worker.isAlive()) {
                throw new IllegalStateException(worker.getName() + " did not finish");
            }
        }
    }

    private static Thread commitAtBarrier(ToolClient worker, String token, CyclicBarrier barrier) {
        return new Thread(() -> {
            try {
                barrier.await(5, TimeUnit.SECONDS);
                worker.commit(args("08"), token, "alpha");
            } catch (Exception e) {
                // the transcript shows what arrived; the verifier judges it
            }
        }, worker.name());
    }

    static void crashAfterCommit(CaseContext c) throws Exception {
        ToolClient crash = c.spawn("crash", c.alice().withFault("drop-after-commit"));
        String token = crash.roundOne(args("09"));
        expectLostReply(crash, args("09"), token);
        c.spawn("restart", c.alice()).status("case-09");
    }

    static void retentionExpiry(CaseContext c) throws Exception {
        WireSettings settings = c.alice().withTtls(360, 60, 600);
        ToolClient current = c.spawn("current", settings);
        String token = current.roundOne(args("10"));
        current.commit(args("10"), token, "alpha");
        c.close(current);
        ToolClient afterRetention = c.spawn("after-retention", settings.at(T0 + 120));
        afterRetention.commit(args("10"), token, "alpha");
        afterRetention.commit(args("10"), afterRetention.roundOne(args("10")), "alpha");
        c.close(afterRetention);
        c.spawn("after-sdk-expiry", settings.at(T0 + 660)).commit(args("10"), token, "alpha");
    }

    static void stateStripped(CaseContext c) throws Exception {
        ToolClient server = c.spawn("server", c.alice());
        server.roundOne(args("11"));
        server.commit(args("11"), null, "alpha");
        ObjectNode fresh = args("11").put("operation_id", "case-11-new").put("title", "guarded-11-new");
        server.firstRound(fresh);
    }

    static void partialEffect(CaseContext c) throws Exception {
        ObjectNode partial = arguments("12", "partial");
        ToolClient server = c.spawn("server", c.alice());
        String token = server.roundOne(partial);
        server.commit(partial, token, "alpha");
        server.commit(partial, token, "alpha");
        c.close(server);
        c.spawn("readback", c.alice()).status("case-12");
    }

    /** The commit whose reply is lost: the server halts with 70 after committing. */
    static void expectLostReply(ToolClient crash, ObjectNode arguments, String token) throws Exception {
        try {
            crash.commit(arguments, token, "alpha");
            throw new IllegalStateException(crash.name() + ": the reply was expected to be lost");
        } catch (TransportFailure expected) {
            crash.awaitExit();
        }
    }
}
