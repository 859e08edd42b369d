package lab.continuationreplay.cases.replicas;

import static lab.continuationreplay.cases.Observation.Kind.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ReplicaCaseId;
import lab.continuationreplay.cases.ReplicaSteps;
import lab.continuationreplay.cases.ServerChoice;
import lab.continuationreplay.cases.ServerSetup;

/**
 * The replica cells' specs and scripts. Every replica is a server process in a container of its own, over Streamable
 * HTTP, on the one PostgreSQL ledger of the cell; {@code replica-a} and {@code replica-b} are two such containers at
 * two addresses. A new cell is a {@link ReplicaCaseId} constant here; the switch will not compile without it.
 */
public final class ReplicaCases {
    private ReplicaCases() {}

    /** A reply lost on one replica (it commits and closes the connection), recovered on the other. */
    private static final String RECOVERED_ELSEWHERE = "{\"consumer_action\":\"return_stored_result\",\"effects\":1,"
            + "\"explicit_replay\":\"replayed\",\"reconciled\":\"applied\",\"transport\":\"unknown\"}";

    static final CaseSpec LOST_REPLY = CaseSpec.of(ReplicaCaseId.LOST_REPLY_OTHER_REPLICA)
            .minContinuations(2)
            .observe("transport", Observation.of(TRANSPORT))
            .observe("reconciled", Observation.of(RECONCILED))
            .observe("consumer_action", Observation.of(CONSUMER_ACTION))
            .observe("explicit_replay", Observation.of(EXPLICIT_REPLAY, 1))
            .frozen(RECOVERED_ELSEWHERE, ReplicaCases::lostReply);

    static final CaseSpec BOTH_AT_ONCE = CaseSpec.of(ReplicaCaseId.SAME_CONTINUATION_BOTH_REPLICAS)
            .minContinuations(2)
            .observe("processes", Observation.of(CONTINUATION_PROCESSES))
            .observe("replayed_flags", Observation.of(REPLAYED_FLAGS))
            .observe("same_result", Observation.of(SAME_RESULT))
            .frozen("{\"effects\":1,\"processes\":2,\"replayed_flags\":[false,true],\"same_result\":true}",
                    ReplicaCases::bothAtOnce);

    /** How far ahead the fast replica's clock runs, in seconds. */
    public static final long CLOCK_AHEAD_SECONDS = 30;

    /**
     * Continuations count replica by replica in the order the replicas started (A's first), whatever order they were
     * sent in: here A's (the fast replica's) is 0 and B's is 1. The slow replica refuses the state with the
     * application state's own check (seed spec §4, check 4), before any effect.
     */
    static final CaseSpec CLOCK_AHEAD = CaseSpec.of(ReplicaCaseId.CLOCK_AHEAD)
            .minContinuations(2)
            .observe("on_the_fast_replica", Observation.of(MECHANISM, 0))
            .observe("on_the_slow_replica", Observation.of(MECHANISM, 1))
            .observe("reconciled", Observation.of(RECONCILED))
            .frozen("{\"effects\":1,\"on_the_fast_replica\":\"applied\",\"on_the_slow_replica\":\"state_issued_in_the_future\","
                    + "\"reconciled\":\"applied\"}", ReplicaCases::clockAhead);

    static final CaseSpec CUT_OFF = CaseSpec.of(ReplicaCaseId.CUT_FROM_DATABASE)
            .minContinuations(2)
            .observe("cut_off", Observation.of(CLEAR_ERROR, 0))
            .observe("reconciled", Observation.of(RECONCILED))
            .observe("consumer_action", Observation.of(CONSUMER_ACTION))
            .observe("retried", Observation.of(MECHANISM, 1))
            .frozen("{\"consumer_action\":\"stop\",\"cut_off\":\"clear_error\",\"effects\":1,\"reconciled\":\"unknown\","
                    + "\"retried\":\"applied\"}", ReplicaCases::cutOff);

    static final CaseSpec DATABASE_KILLED = CaseSpec.of(ReplicaCaseId.DATABASE_KILLED)
            .minContinuations(2)
            .observe("transport", Observation.of(TRANSPORT))
            .observe("reconciled", Observation.of(RECONCILED))
            .observe("consumer_action", Observation.of(CONSUMER_ACTION))
            .observe("explicit_replay", Observation.of(EXPLICIT_REPLAY, 1))
            .frozen(RECOVERED_ELSEWHERE, ReplicaCases::databaseKilled);

    /** Across SDKs the stored result is recovered by status; the other SDK's state is foreign and refused. */
    private static final String FOREIGN_STATE = "{\"consumer_action\":\"return_stored_result\",\"effects\":1,"
            + "\"foreign_state\":\"request_state_rejected\",\"reconciled\":\"applied\",\"transport\":\"unknown\"}";

    static final CaseSpec JAVA_TO_TYPESCRIPT = across(ReplicaCaseId.JAVA_COMMITS_TYPESCRIPT_RECOVERS,
            ServerChoice.JAVA, ServerChoice.TYPESCRIPT);
    static final CaseSpec TYPESCRIPT_TO_JAVA = across(ReplicaCaseId.TYPESCRIPT_COMMITS_JAVA_RECOVERS,
            ServerChoice.TYPESCRIPT, ServerChoice.JAVA);

    public static CaseSpec spec(ReplicaCaseId id) {
        return switch (id) {
            case LOST_REPLY_OTHER_REPLICA -> LOST_REPLY;
            case SAME_CONTINUATION_BOTH_REPLICAS -> BOTH_AT_ONCE;
            case CLOCK_AHEAD -> CLOCK_AHEAD;
            case CUT_FROM_DATABASE -> CUT_OFF;
            case DATABASE_KILLED -> DATABASE_KILLED;
            case JAVA_COMMITS_TYPESCRIPT_RECOVERS -> JAVA_TO_TYPESCRIPT;
            case TYPESCRIPT_COMMITS_JAVA_RECOVERS -> TYPESCRIPT_TO_JAVA;
        };
    }

    /** The cells of one SDK's replicas ({@code r*}) or the cells across SDKs ({@code x*}), in id order. */
    public static List<CaseSpec> cells(boolean withinOneSdk) {
        return Arrays.stream(ReplicaCaseId.values()).filter(id -> id.withinOneSdk() == withinOneSdk).map(ReplicaCases::spec)
                .toList();
    }

    private static CaseSpec across(ReplicaCaseId id, ServerChoice commits, ServerChoice recovers) {
        return CaseSpec.of(id)
                .minContinuations(2)
                .refusals(CaseSpec.Refusal.STATE)
                .observe("transport", Observation.of(TRANSPORT))
                .observe("reconciled", Observation.of(RECONCILED))
                .observe("consumer_action", Observation.of(CONSUMER_ACTION))
                .observe("foreign_state", Observation.of(MECHANISM, 1))
                .frozen(FOREIGN_STATE, c -> acrossSdks(c, id, commits, recovers));
    }

    private static ServerSetup losing() {
        return ServerSetup.alice().with(ServerSetup.Fault.CLOSE_AFTER_COMMIT);
    }

    /** r1: replica A commits and loses the reply; replica B reads the status, then replays the same continuation. */
    private static void lostReply(CaseSteps c) throws Exception {
        ReplicaCaseId id = ReplicaCaseId.LOST_REPLY_OTHER_REPLICA;
        CaseServer a = c.spawn("replica-a", losing());
        CaseServer b = c.spawn("replica-b", ServerSetup.alice());
        String state = a.roundOne(CaseArguments.atomic(id));
        a.commitLosingConnection(CaseServer.CREATE, CaseArguments.atomic(id), state, CaseSpec.BODY);
        b.status(id.operationId());
        b.commit(CaseArguments.atomic(id), state, CaseSpec.BODY);
    }

    /** r2: the same continuation to both replicas, released together: the database lets one apply. */
    private static void bothAtOnce(CaseSteps c) throws Exception {
        ReplicaCaseId id = ReplicaCaseId.SAME_CONTINUATION_BOTH_REPLICAS;
        CaseServer a = c.spawn("replica-a", ServerSetup.alice());
        CaseServer b = c.spawn("replica-b", ServerSetup.alice());
        String state = a.roundOne(CaseArguments.atomic(id));
        CyclicBarrier barrier = new CyclicBarrier(3);
        List<Thread> senders = new ArrayList<>();
        for (CaseServer replica : List.of(a, b)) {
            senders.add(new Thread(() -> {
                try {
                    barrier.await(10, TimeUnit.SECONDS);
                    replica.commit(CaseArguments.atomic(id), state, CaseSpec.BODY);
                } catch (Exception e) {
                    // the transcript shows what arrived; the checker judges it
                }
            }, replica.name()));
        }
        senders.forEach(Thread::start);
        barrier.await(10, TimeUnit.SECONDS);
        joinAll(senders);
    }

    /**
     * r3: replica A's clock runs {@link #CLOCK_AHEAD_SECONDS} ahead of B's. A state A issues is from B's future, so B
     * refuses it; A itself applies it, and B's status read-back finds the effect.
     */
    private static void clockAhead(CaseSteps c) throws Exception {
        ReplicaCaseId id = ReplicaCaseId.CLOCK_AHEAD;
        CaseServer fast = c.spawn("replica-a", ServerSetup.alice().at(CLOCK_AHEAD_SECONDS));
        CaseServer slow = c.spawn("replica-b", ServerSetup.alice());
        String state = fast.roundOne(CaseArguments.atomic(id));
        slow.commit(CaseArguments.atomic(id), state, CaseSpec.BODY);
        fast.commit(CaseArguments.atomic(id), state, CaseSpec.BODY);
        slow.status(id.operationId());
    }

    /**
     * r4: replica A's continuation waits inside the database (a lock the lab holds) when A is taken off the network;
     * the lock is let go, A's ledger call times out and A answers with an error. Once the database has ended A's
     * open transaction, B's status read-back finds no record, which is not proof that nothing was applied (the
     * consumer stops: status alone cannot settle it); sending the same continuation again is what is safe, and it
     * applies once.
     */
    private static void cutOff(CaseSteps steps) throws Exception {
        ReplicaSteps c = ReplicaSteps.of(steps);
        ReplicaCaseId id = ReplicaCaseId.CUT_FROM_DATABASE;
        CaseServer a = c.spawn("replica-a", ServerSetup.alice());
        CaseServer b = c.spawn("replica-b", ServerSetup.alice());
        String state = a.roundOne(CaseArguments.atomic(id));
        c.holdLedger();
        Thread continuation = new Thread(() -> {
            try {
                a.commit(CaseArguments.atomic(id), state, CaseSpec.BODY);
            } catch (Exception e) {
                // the transcript shows what arrived; the checker judges it
            }
        }, "replica-a");
        continuation.start();
        try {
            c.awaitWaitingOnLedger(a);
            c.cutFromDatabase(a);
        } finally {
            c.releaseLedger();
        }
        joinAll(List.of(continuation));
        c.reconnectToDatabase(a);
        c.awaitDatabaseForgets(a);
        b.status(id.operationId());
        b.commit(CaseArguments.atomic(id), state, CaseSpec.BODY);
    }

    /**
     * r5: replica A commits and loses the reply; the database server is killed (no shutdown) and started again from
     * its write-ahead log; replica B, started after it, reads the status and replays.
     */
    private static void databaseKilled(CaseSteps steps) throws Exception {
        ReplicaSteps c = ReplicaSteps.of(steps);
        ReplicaCaseId id = ReplicaCaseId.DATABASE_KILLED;
        CaseServer a = c.spawn("replica-a", losing());
        String state = a.roundOne(CaseArguments.atomic(id));
        a.commitLosingConnection(CaseServer.CREATE, CaseArguments.atomic(id), state, CaseSpec.BODY);
        c.killAndRestartDatabase();
        CaseServer b = c.spawn("replica-b", ServerSetup.alice());
        b.status(id.operationId());
        b.commit(CaseArguments.atomic(id), state, CaseSpec.BODY);
    }

    /** x1, x2: one SDK's replica commits and loses the reply; the other SDK's replica recovers by status. */
    private static void acrossSdks(CaseSteps c, ReplicaCaseId id, ServerChoice commits, ServerChoice recovers)
            throws Exception {
        CaseServer a = c.spawn("replica-a", losing(), commits);
        CaseServer b = c.spawn("replica-b", ServerSetup.alice(), recovers);
        String state = a.roundOne(CaseArguments.atomic(id));
        a.commitLosingConnection(CaseServer.CREATE, CaseArguments.atomic(id), state, CaseSpec.BODY);
        b.status(id.operationId());
        b.commit(CaseArguments.atomic(id), state, CaseSpec.BODY);
    }

    private static void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread thread : threads) {
            thread.join(60_000);
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not finish");
            }
        }
    }
}
