package lab.continuationreplay.server;

import java.time.Duration;

/**
 * What the stdio server is doing: requests between arrival and reply, and when anything last moved. The SDK's stdio
 * transport cancels in-flight requests as soon as stdin ends, so the server holds back the end of stdin until it has
 * been quiet for a moment, and {@code printf '…' | server} gets its replies.
 */
final class Activity {
    static final Duration QUIET = Duration.ofMillis(200);

    private int pending;
    private long lastMove = System.nanoTime();

    synchronized void started() {
        pending++;
        moved();
    }

    synchronized void finished() {
        pending--;
        moved();
    }

    synchronized void moved() {
        lastMove = System.nanoTime();
        notifyAll();
    }

    /** Blocks until nothing is pending and nothing has moved for {@link #QUIET}, or {@code limit} has passed. */
    synchronized void awaitQuiet(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            long now = System.nanoTime();
            long quietFor = now - lastMove;
            if ((pending == 0 && quietFor >= QUIET.toNanos()) || now >= deadline) {
                return;
            }
            long waitNanos = pending > 0 ? deadline - now : Math.min(deadline - now, QUIET.toNanos() - quietFor);
            wait(Math.max(1, waitNanos / 1_000_000));
        }
    }
}
