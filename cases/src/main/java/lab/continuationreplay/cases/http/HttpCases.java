package lab.continuationreplay.cases.http;

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
import lab.continuationreplay.cases.HttpCaseId;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;

/** The HTTP cases' specs and scripts. A new one is an {@link HttpCaseId} constant here; the switch will not compile without it. */
public final class HttpCases {
    private HttpCases() {}

    /**
     * h1: the server commits, closes the connection without a response and keeps serving. The client cannot tell
     * whether the write happened; status on the same live server says applied, and the same continuation replays.
     */
    static final CaseSpec CLOSE_AFTER_COMMIT = CaseSpec.of(HttpCaseId.CLOSE_AFTER_COMMIT)
            .minContinuations(2)
            .observe("transport", Observation.of(TRANSPORT))
            .observe("reconciled", Observation.of(RECONCILED))
            .observe("consumer_action", Observation.of(CONSUMER_ACTION))
            .observe("explicit_replay", Observation.of(EXPLICIT_REPLAY, 1))
            .frozen("{\"consumer_action\":\"return_stored_result\",\"effects\":1,\"explicit_replay\":\"replayed\","
                    + "\"reconciled\":\"applied\",\"transport\":\"unknown\"}", HttpCases::closeAfterCommit);

    /** h2: one client sends the same continuation on two connections at once to one server: one applies, one replays. */
    static final CaseSpec TWO_CONNECTIONS = CaseSpec.of(HttpCaseId.CONTINUATION_ON_TWO_CONNECTIONS)
            .minContinuations(2)
            .observe("processes", Observation.of(CONTINUATION_PROCESSES))
            .observe("replayed_flags", Observation.of(REPLAYED_FLAGS))
            .observe("same_result", Observation.of(SAME_RESULT))
            .frozen("{\"effects\":1,\"processes\":1,\"replayed_flags\":[false,true],\"same_result\":true}",
                    c -> race(c, HttpCaseId.CONTINUATION_ON_TWO_CONNECTIONS, 2));

    /** h3: twenty identical continuations at once, each on its own connection: one effect, nineteen replays, no 503. */
    static final CaseSpec TWENTY = CaseSpec.of(HttpCaseId.TWENTY_CONTINUATIONS)
            .minContinuations(20)
            .observe("replayed_flags", Observation.of(REPLAYED_FLAGS))
            .observe("same_result", Observation.of(SAME_RESULT))
            .frozen("{\"effects\":1,\"replayed_flags\":[false" + ",true".repeat(19) + "],\"same_result\":true}",
                    c -> race(c, HttpCaseId.TWENTY_CONTINUATIONS, 20));

    public static CaseSpec spec(HttpCaseId id) {
        return switch (id) {
            case CLOSE_AFTER_COMMIT -> CLOSE_AFTER_COMMIT;
            case CONTINUATION_ON_TWO_CONNECTIONS -> TWO_CONNECTIONS;
            case TWENTY_CONTINUATIONS -> TWENTY;
        };
    }

    public static List<CaseSpec> all() {
        return Arrays.stream(HttpCaseId.values()).map(HttpCases::spec).toList();
    }

    private static void closeAfterCommit(CaseSteps c) throws Exception {
        HttpCaseId id = HttpCaseId.CLOSE_AFTER_COMMIT;
        CaseServer server = c.spawn("server", ServerSetup.alice().with(ServerSetup.Fault.CLOSE_AFTER_COMMIT));
        String token = server.roundOne(CaseArguments.atomic(id));
        server.commitLosingConnection(CaseServer.CREATE, CaseArguments.atomic(id), token, CaseSpec.BODY);
        server.status(id.operationId());
        server.commit(CaseArguments.atomic(id), token, CaseSpec.BODY);
    }

    /** {@code count} threads send the same continuation to one server, released together at a barrier. */
    private static void race(CaseSteps c, HttpCaseId id, int count) throws Exception {
        CaseServer server = c.spawn("server", ServerSetup.alice());
        String token = server.roundOne(CaseArguments.atomic(id));
        CyclicBarrier barrier = new CyclicBarrier(count + 1);
        List<Thread> senders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            senders.add(new Thread(() -> {
                try {
                    barrier.await(10, TimeUnit.SECONDS);
                    server.commit(CaseArguments.atomic(id), token, CaseSpec.BODY);
                } catch (Exception e) {
                    // the transcript shows what arrived; the checker judges it
                }
            }, "continuation-" + (i + 1)));
        }
        senders.forEach(Thread::start);
        barrier.await(10, TimeUnit.SECONDS);
        for (Thread sender : senders) {
            sender.join(30_000);
            if (sender.isAlive()) {
                throw new IllegalStateException(sender.getName() + " did not finish");
            }
        }
    }
}
