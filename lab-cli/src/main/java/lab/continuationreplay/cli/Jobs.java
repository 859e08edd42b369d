package lab.continuationreplay.cli;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** How the commands run their attempts side by side (each on its own folders and databases), {@code --jobs} at a time. */
final class Jobs {
    private Jobs() {}

    /** A pool of {@code jobs} threads: by default 2, or 1 on a one-core machine. */
    static ExecutorService pool(Integer jobs) {
        int parallel = jobs != null ? jobs : Math.min(2, Runtime.getRuntime().availableProcessors());
        if (parallel < 1) {
            throw new IllegalArgumentException("--jobs must be at least 1");
        }
        return Executors.newFixedThreadPool(parallel);
    }

    /** The job's result, or the exception it ended with (not wrapped), so the command reports it as one line. */
    static <T> T result(Future<T> future) throws Exception {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
