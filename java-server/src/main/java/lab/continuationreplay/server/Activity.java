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
    private java.util.function.BooleanSupplier settled = () -> false;
    private long lastMove = System.nanoTime();

    /** What says, at the end of stdin, that every request read has its reply out: then nothing is left to wait for. */
    synchronized void settledWhen(java.util.function.BooleanSupplier settled) {
        this.settled = settled;
    }

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

    /**
     * Blocks until every request read has its reply out, or nothing is pending and nothing has moved for
     * {@link #QUIET}, or {@code limit} has passed.
     */
    synchronized void awaitQuiet(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            if (settled.getAsBoolean()) {
                return;
            }
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
