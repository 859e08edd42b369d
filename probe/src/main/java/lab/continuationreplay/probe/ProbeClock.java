package lab.continuationreplay.probe;

/** Milliseconds since the probe began: the times in its history. */
final class ProbeClock {
    private final long start = System.nanoTime();

    long millis() {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
