package lab.continuationreplay.core.wire;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** How the lab ends the processes it starts: a stdio child stops at end of input; whatever lingers is killed with its children. */
public final class ChildProcess {
    private ChildProcess() {}

    /** Waits up to {@code limit}; on timeout kills the process and its descendants. True if it ended by itself. */
    public static boolean awaitOrKill(Process process, Duration limit) throws InterruptedException {
        if (process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            return true;
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
        return false;
    }

    /** Closes the child's stdin (its signal to stop), then {@link #awaitOrKill}; never throws. */
    public static void endAfterInput(Process process, Closeable stdin, Duration grace) {
        try {
            stdin.close();
        } catch (IOException ignored) {
            // already gone
        }
        try {
            awaitOrKill(process, grace);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
