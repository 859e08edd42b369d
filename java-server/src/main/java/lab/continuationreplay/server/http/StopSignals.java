package lab.continuationreplay.server.http;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * TERM and INT as a request to stop. Left to the JVM, either ends the process at once with 143 or 130; the lab stops
 * its HTTP servers with SIGTERM and records a server it stopped as exit 0, so the server has to take the signal itself,
 * finish what it is doing and exit normally. {@code sun.misc.Signal} (module jdk.unsupported) is the only way a Java
 * program can replace the JVM's own handling of a signal.
 */
final class StopSignals {
    private static final List<String> NAMES = List.of("TERM", "INT");

    private final CountDownLatch received = new CountDownLatch(1);
    private volatile String name;

    private StopSignals() {}

    /** From now on TERM and INT no longer end the process; {@link #await()} returns once one of them arrives. */
    static StopSignals install() {
        StopSignals signals = new StopSignals();
        for (String name : NAMES) {
            Signal.handle(new Signal(name), signal -> {
                // A second signal while stopping changes nothing: the stop is already bounded.
                if (signals.name == null) {
                    signals.name = "SIG" + signal.getName();
                }
                signals.received.countDown();
            });
        }
        return signals;
    }

    /** Blocks until a stop signal arrives; returns its name ({@code SIGTERM}, {@code SIGINT}). */
    String await() {
        boolean interrupted = false;
        while (true) {
            try {
                received.await();
                break;
            } catch (InterruptedException e) {
                // Nothing else is meant to wake this thread; only a signal ends serving.
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return name;
    }
}
