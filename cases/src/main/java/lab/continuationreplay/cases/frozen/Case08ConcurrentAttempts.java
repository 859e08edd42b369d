package lab.continuationreplay.cases.frozen;

import static lab.continuationreplay.cases.Observation.Kind.*;

import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/** §9.9: two processes send the same continuation at once; one applies, the other joins and replays. */
public final class Case08ConcurrentAttempts {
    private static final CaseId ID = CaseId.CONCURRENT_ATTEMPTS;

    public static final CaseSpec SPEC = CaseSpec.of(ID)
            .minContinuations(2)
            .observe("processes", Observation.of(CONTINUATION_PROCESSES))
            .observe("replayed_flags", Observation.of(REPLAYED_FLAGS))
            .observe("same_result", Observation.of(SAME_RESULT))
            .frozen("{\"effects\":1,\"processes\":2,\"replayed_flags\":[false,true],\"same_result\":true}",
                    Case08ConcurrentAttempts::run);

    private Case08ConcurrentAttempts() {}

    /** Two independent processes, both connected, released together at a barrier; completion is a join. */
    static void run(CaseSteps c) throws Exception {
        CaseServer issuer = c.spawn("issuer", ServerSetup.alice());
        String token = issuer.roundOne(CaseArguments.atomic(ID));
        c.close(issuer);
        CaseServer workerA = c.spawn("worker-a", ServerSetup.alice());
        CaseServer workerB = c.spawn("worker-b", ServerSetup.alice());
        CyclicBarrier barrier = new CyclicBarrier(3);
        List<Thread> workers = List.of(atBarrier(workerA, token, barrier), atBarrier(workerB, token, barrier));
        workers.forEach(Thread::start);
        barrier.await(5, TimeUnit.SECONDS);
        for (Thread worker : workers) {
            worker.join(10_000);
            if (worker.isAlive()) {
                throw new IllegalStateException(worker.getName() + " did not finish");
            }
        }
    }

    private static Thread atBarrier(CaseServer worker, String token, CyclicBarrier barrier) {
        return new Thread(() -> {
            try {
                barrier.await(5, TimeUnit.SECONDS);
                worker.commit(CaseArguments.atomic(ID), token, CaseSpec.BODY);
            } catch (Exception e) {
                // the transcript shows what arrived; the checker judges it
            }
        }, worker.name());
    }
}
