package lab.continuationreplay.faults.crash;

import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import lab.continuationreplay.core.wire.ServerWire;

/**
 * Sends SIGKILL at random moments to the serving process, or (for a bridge fixture: TypeScript, Python, Go) sometimes to its bridge
 * child instead. It waits until the driver marks a server ready, so every kill lands on a serving process.
 */
final class Killer implements AutoCloseable {
    private final Random random;
    private final int minDelayMs;
    private final int maxDelayMs;
    private final Thread thread;
    private final AtomicInteger serverKills = new AtomicInteger();
    private final AtomicInteger bridgeKills = new AtomicInteger();
    private final List<ProcessHandle> orphans = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile ServerWire target;
    private volatile boolean stopped;
    private final java.util.function.BiConsumer<String, String> onKill;

    /** {@code onKill} hears each kill as it happens: what was killed ({@code server} or {@code bridge}) and how. */
    Killer(Random random, int minDelayMs, int maxDelayMs, java.util.function.BiConsumer<String, String> onKill) {
        this.random = random;
        this.onKill = onKill;
        this.minDelayMs = minDelayMs;
        this.maxDelayMs = maxDelayMs;
        this.thread = new Thread(this::loop, "killer");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** The process to aim at from now on (null: none is serving). */
    void aimAt(ServerWire serving) {
        target = serving;
    }

    int serverKills() {
        return serverKills.get();
    }

    int bridgeKills() {
        return bridgeKills.get();
    }

    private void loop() {
        while (!stopped) {
            try {
                Thread.sleep(minDelayMs + random.nextInt(maxDelayMs - minDelayMs + 1));
            } catch (InterruptedException e) {
                return;
            }
            ServerWire aimed = target;
            if (aimed == null || !aimed.isAlive() || stopped) {
                continue;
            }
            List<ProcessHandle> bridges = aimed.handle().descendants()
                    .filter(p -> p.info().commandLine().orElse("").contains("bridge.jar")).toList();
            if (!bridges.isEmpty() && random.nextBoolean()) {
                bridges.forEach(ProcessHandle::destroyForcibly);
                bridgeKills.incrementAndGet();
                onKill.accept("bridge", "SIGKILL to " + bridges.size() + " bridge process(es)");
            } else {
                // A killed server cannot be aimed at again until the driver has restarted and marked a new one.
                target = null;
                orphans.addAll(aimed.handle().descendants().toList());
                aimed.handle().destroyForcibly();
                serverKills.incrementAndGet();
                onKill.accept("server", "SIGKILL to pid " + aimed.handle().pid());
            }
        }
    }

    /** Children of killed servers (a fixture's bridge) that live on until they see the end of their input. */
    List<ProcessHandle> orphans() {
        return List.copyOf(orphans);
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.interrupt();
        thread.join(5000);
    }
}
