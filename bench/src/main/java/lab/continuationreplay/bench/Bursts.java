package lab.continuationreplay.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/** Concurrent calls as the benchmarks' HTTP bursts make them: a fixed number of clients take the next index until none is left. */
final class Bursts {
    /** One call, by its index in the burst. */
    interface Call {
        void call(int index) throws Exception;
    }

    private Bursts() {}

    /** {@code calls} calls by {@code clients} threads of {@code pool} at once; returns calls per second. */
    static double run(ExecutorService pool, int clients, int calls, Call call) throws Exception {
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> running = new ArrayList<>();
        long start = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            running.add(pool.submit(() -> {
                for (int i = next.getAndIncrement(); i < calls; i = next.getAndIncrement()) {
                    call.call(i);
                }
                return null;
            }));
        }
        for (Future<?> client : running) {
            client.get();
        }
        return calls / ((System.nanoTime() - start) / 1e9);
    }
}
