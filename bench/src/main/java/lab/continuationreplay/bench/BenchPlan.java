package lab.continuationreplay.bench;

import java.nio.file.Path;

/**
 * How much each benchmark does: the sizes, or the {@code --quick} ones (same code paths, fewer samples, the
 * matrix on a subset of cases, a large ledger of 20,000 rows, not 1,000,000) that finish in under 90 s on two cores. {@code work} is the scratch folder:
 * databases, transcripts and logs of the benchmarked processes.
 */
public record BenchPlan(
        boolean quick,
        Path home,
        Path work,
        int warmupCalls,
        int timedCalls,
        int ledgerOperationsPerProcess,
        int ledgerProcesses,
        int bridgeCalls,
        int bridgeSpawns,
        JmhSettings jmh,
        long nodeBenchMillis,
        String matrixCases,
        int largeLedgerRows) {

    /** JMH iteration settings: forks 0 runs in the lab's own JVM. */
    public record JmhSettings(int forks, int warmupIterations, int measurementIterations, int iterationMillis) {}

    public static BenchPlan full(Path home, Path work) {
        return new BenchPlan(false, home, work, 200, 2000, 250, 8, 1000, 20,
                new JmhSettings(1, 2, 4, 1000), 1000, null, 1_000_000);
    }

    public static BenchPlan quick(Path home, Path work) {
        return new BenchPlan(true, home, work, 10, 60, 40, 8, 150, 3,
                new JmhSettings(0, 1, 1, 200), 100, "01", 20_000);
    }
}
