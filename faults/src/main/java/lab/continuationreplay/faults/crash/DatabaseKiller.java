package lab.continuationreplay.faults.crash;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import lab.continuationreplay.store.postgres.EmbeddedPostgres;

/**
 * The kill soak's second killer on PostgreSQL: at a few operations chosen from the seed it kills the run's database
 * server with SIGKILL, a random few milliseconds after the driver sends that operation's continuation (so it lands
 * before, inside or after the ledger's transaction), keeps it down a little, and starts it again on the same cluster
 * and port. Every server's ledger must then open a new session; a commit acknowledged before the kill must survive
 * it (the WAL was flushed before COMMIT returned).
 */
public final class DatabaseKiller implements AutoCloseable {
    /** At most this long from the driver's signal to the kill: about one continuation's time on a busy machine. */
    private static final int MAX_DELAY_MS = 60;
    /** At most this long down before the restart begins, so calls meet a server that is gone, not only a new one. */
    private static final int MAX_DOWN_MS = 400;

    private final EmbeddedPostgres server;
    private final Random random;
    private final Set<Integer> at;
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private Thread pending;
    private int kills;
    private final java.util.function.Consumer<String> onKill;

    /**
     * Kills {@code count} times at distinct operations in {@code [0, operations)}, chosen from {@code random};
     * {@code onKill} hears each kill as it happens.
     */
    DatabaseKiller(EmbeddedPostgres server, Random random, int operations, int count, java.util.function.Consumer<String> onKill) {
        this.server = server;
        this.onKill = onKill;
        this.random = random;
        this.at = choose(random, operations, count);
    }

    /** The operations the database is killed during, in order: drawn from the seed, away from the first and last few. */
    public static Set<Integer> choose(Random random, int operations, int count) {
        int margin = Math.min(3, operations / 4);
        int span = operations - 2 * margin;
        if (count > span) {
            throw new IllegalArgumentException(count + " database kills do not fit in " + operations + " operations");
        }
        TreeSet<Integer> chosen = new TreeSet<>();
        while (chosen.size() < count) {
            chosen.add(margin + random.nextInt(span));
        }
        return chosen;
    }

    /** Called by the driver before it sends operation {@code i}'s continuation: kills the database soon after, if chosen. */
    void maybeDuring(int i) throws InterruptedException {
        if (!at.contains(i)) {
            return;
        }
        awaitUp(); // one kill at a time: the previous one's restart has finished
        int delay = random.nextInt(MAX_DELAY_MS + 1);
        int down = random.nextInt(MAX_DOWN_MS + 1);
        pending = new Thread(() -> killAndRestart(delay, down), "database-killer");
        pending.setDaemon(true);
        pending.start();
    }

    private void killAndRestart(int delayMs, int downMs) {
        try {
            Thread.sleep(delayMs);
            server.kill();
            synchronized (this) {
                kills++;
            }
            onKill.accept("SIGKILL, down " + downMs + " ms before the restart");
            Thread.sleep(downMs);
        } catch (Exception e) {
            failures.add("killing the database failed: " + e);
        } finally {
            try {
                if (!server.running()) {
                    server.restart();
                }
            } catch (Exception e) {
                failures.add("the database did not start again after a kill: " + e);
            }
        }
    }

    /** Waits until the last kill's restart has finished (the rows are read from the database afterwards). */
    void awaitUp() throws InterruptedException {
        if (pending != null) {
            pending.join();
            pending = null;
        }
    }

    synchronized int kills() {
        return kills;
    }

    /** What went wrong with the database itself (a restart that failed, say): findings of the soak. */
    List<String> failures() {
        return new ArrayList<>(failures);
    }

    @Override
    public void close() throws InterruptedException {
        awaitUp();
    }
}
