package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/** Runs the benchmarks one after another in one process, on one machine, and assembles {@code bench.json}. */
public final class BenchSuite {
    private BenchSuite() {}

    public static ObjectNode run(BenchPlan plan, PrintStream progress) throws Exception {
        String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_INSTANT);
        long suiteStart = System.nanoTime();
        ObjectNode machine = Machine.facts(plan.work());
        Map<String, BenchResult> results = new LinkedHashMap<>();
        Map<String, Double> durations = new LinkedHashMap<>();

        long t = System.nanoTime();
        GuardOverheadBench.Outcome guard = GuardOverheadBench.run(plan, progress);
        results.put("guard_overhead", guard.result());
        durations.put("guard_overhead", seconds(t));
        Map<String, Double> rss = new LinkedHashMap<>(guard.peakRssMib());
        rss.putAll(ClientRss.sample(plan));
        results.put("memory", MemoryBench.of(rss));
        durations.put("memory", 0.0);

        t = System.nanoTime();
        results.put("http_vs_stdio", HttpVsStdioBench.run(plan, progress));
        durations.put("http_vs_stdio", seconds(t));

        t = System.nanoTime();
        results.put("ledger_throughput", LedgerThroughputBench.run(plan, progress));
        durations.put("ledger_throughput", seconds(t));

        t = System.nanoTime();
        results.put("ledger_throughput_postgres", LedgerThroughputBench.runOnPostgres(plan, progress));
        durations.put("ledger_throughput_postgres", seconds(t));

        t = System.nanoTime();
        results.put("large_ledger", LargeLedgerBench.run(plan, progress));
        durations.put("large_ledger", seconds(t));

        t = System.nanoTime();
        results.put("bridge_round_trip", BridgeRoundTripBench.run(plan, progress));
        durations.put("bridge_round_trip", seconds(t));

        t = System.nanoTime();
        results.put("fingerprint", FingerprintBench.run(plan, progress));
        durations.put("fingerprint", seconds(t));

        t = System.nanoTime();
        results.put("matrix_wall_time", MatrixWallTimeBench.run(plan, progress));
        durations.put("matrix_wall_time", seconds(t));

        return BenchReport.of(plan.quick(), started, seconds(suiteStart), machine, results, durations);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
